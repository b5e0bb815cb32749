"""The engines are pure: importing every engine module pulls in no Django, Channels or Celery."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import games.engine

BASE_DIR = Path(__file__).resolve().parents[2]


def test_engine_modules_import_no_framework() -> None:
    modules = [f"games.engine.{m.name}" for m in pkgutil.iter_modules(games.engine.__path__)]
    assert len(modules) >= 5
    # games/__init__.py is empty, so importing games.engine.* loads only what the engines import.
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "frameworks = {'django', 'channels', 'celery', 'kombu', 'redis'}\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in frameworks)\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "", f"engine code imports framework modules: {result.stdout}"
