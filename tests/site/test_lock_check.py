"""The lock check that `make install` and `make test` run: pyproject.toml and requirements.lock agree."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

BASE_DIR = Path(__file__).resolve().parents[2]


def check_lock() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_lock", BASE_DIR / "scripts" / "check_lock.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_lock_pins_every_requirement_of_pyproject() -> None:
    assert check_lock().problems(BASE_DIR / "pyproject.toml", BASE_DIR / "requirements.lock") == []


def test_every_pin_carries_hashes() -> None:
    # pip installs with --require-hashes: a pin without one would stop every fresh install.
    text = (BASE_DIR / "requirements.lock").read_text()
    pins = [line for line in text.splitlines() if "==" in line and not line.startswith((" ", "#"))]
    assert pins and all(line.rstrip().endswith("\\") for line in pins)


def test_a_new_or_narrowed_requirement_without_a_new_lock_fails(tmp_path: Path) -> None:
    pyproject = (BASE_DIR / "pyproject.toml").read_text()
    changed = pyproject.replace('"django-csp>=4.0,<5"', '"django-csp>=4.1,<5"').replace(
        '"ruff>=0.8,<1",', '"ruff>=0.8,<1",\n    "left-pad-for-python>=1",'
    )
    assert changed.count("left-pad") == 1 and "django-csp>=4.1" in changed
    (tmp_path / "pyproject.toml").write_text(changed)
    found = check_lock().problems(tmp_path / "pyproject.toml", BASE_DIR / "requirements.lock")
    assert any("left-pad-for-python is required" in problem for problem in found)
    assert any("does not admit the locked django-csp==" in problem for problem in found)


def test_a_pin_nothing_requires_fails(tmp_path: Path) -> None:
    lock = (BASE_DIR / "requirements.lock").read_text()
    (tmp_path / "requirements.lock").write_text(
        lock + "orphan-package==1.0 \\\n    --hash=sha256:" + "0" * 64 + "\n"
    )
    found = check_lock().problems(BASE_DIR / "pyproject.toml", tmp_path / "requirements.lock")
    assert found == ["orphan-package==1.0 is pinned in the lock but nothing requires it"]
