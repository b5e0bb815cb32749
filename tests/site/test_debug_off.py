"""``make run`` is the real site: DEBUG off unless asked for, the site's own error pages,
static files through WhiteNoise straight from the tree."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import RequestFactory
from django.views.defaults import server_error

from tests.support import (
    child_env,
    running_daphne,
)

BASE_DIR = Path(__file__).resolve().parents[2]
# Processes of their own (a daphne, Django in a fresh interpreter) with `make run`'s settings:
# not for `make check`.
pytestmark = pytest.mark.services
# What Django's debug 404 page says, and what it lists: every URL pattern of the site.
DEBUG_PAGE_MARKS = ("Using the URLconf defined in", "urlpatterns", "DEBUG = True", "game_id", "admin/")

PROBE = """
import json, django
from django.conf import settings
django.setup()
from django.test.utils import setup_test_environment
setup_test_environment()
from django.test import Client
response = Client().get("/no-such-page/")
body = response.content.decode()
print(json.dumps({"debug": settings.DEBUG, "status": response.status_code, "body": body}))
"""


def dev_env(data_dir: Path, **overrides: str) -> dict[str, str]:
    """What ``make run`` gives its processes (launcher/embedded.py), on a data folder of our own;
    DJANGO_DEBUG unset unless given."""
    env = {
        k: v
        for k, v in child_env().items()
        if k not in {"DJANGO_DEBUG", "DATABASE_URL", "DJANGO_SETTINGS_MODULE", "MAKEFLAGS", "MFLAGS"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.dev", CAPSTONE_DATA_DIR=str(data_dir), PYTHONUNBUFFERED="1"
    )
    env.update(overrides)
    return env


def probe(env: dict[str, str]) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_dev_settings_show_the_sites_404_unless_debug_is_asked_for(tmp_path: Path) -> None:
    plain = probe(dev_env(tmp_path))
    assert plain["debug"] is False and plain["status"] == 404
    assert "There is nothing at this address." in plain["body"]
    assert not [mark for mark in DEBUG_PAGE_MARKS if mark in plain["body"]]

    # DJANGO_DEBUG=1 (make dev) turns the debug page on: the check above can tell them apart.
    debugging = probe(dev_env(tmp_path, DJANGO_DEBUG="1"))
    assert debugging["debug"] is True and debugging["status"] == 404
    assert "Using the URLconf defined in" in debugging["body"] and "game_id" in debugging["body"]


@pytest.fixture(scope="module")
def make_run_daphne(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """daphne as ``make run`` starts it: config.settings.dev, migrated SQLite in the data folder."""
    env = dev_env(tmp_path_factory.mktemp("make-run"))
    migrate = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert migrate.returncode == 0, migrate.stderr
    with running_daphne("make-run-daphne.log", env) as url:
        yield url


def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=15) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_make_run_serves_static_files_from_the_tree(make_run_daphne: str) -> None:
    status, headers, body = fetch(make_run_daphne + "/static/css/site.css")
    assert status == 200 and headers["Content-Type"].startswith("text/css")
    assert body == (BASE_DIR / "static" / "css" / "site.css").read_bytes()
    assert headers["X-Content-Type-Options"] == "nosniff"
    status, headers, _ = fetch(make_run_daphne + "/static/vendor/htmx/htmx-2.0.11.min.js")
    assert status == 200 and "javascript" in headers["Content-Type"]


def test_make_run_answers_an_unknown_address_with_the_sites_404(make_run_daphne: str) -> None:
    status, headers, body = fetch(make_run_daphne + "/no-such-page/")
    page = body.decode()
    assert status == 404
    assert "There is nothing at this address." in page and 'href="/play/"' in page
    assert not [mark for mark in DEBUG_PAGE_MARKS if mark in page]
    assert "script-src 'self'" in headers["Content-Security-Policy"]


def test_the_500_page_needs_no_request_context_and_tells_nothing() -> None:
    response = server_error(RequestFactory().get("/anything/"))
    page = response.content.decode()
    assert response.status_code == 500
    assert "Something broke on our side" in page
    assert "Traceback" not in page and "{%" not in page and "{{" not in page
    for asset in ("/static/css/site.css", "/static/img/favicon.svg"):
        assert f'"{asset}"' in page and (BASE_DIR / asset.removeprefix("/")).exists()
