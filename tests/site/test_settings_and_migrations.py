"""Production settings pass Django's deploy checks; models and migrations agree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import child_env

BASE_DIR = Path(__file__).resolve().parents[2]

PRODUCTION_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings.production",
    "DJANGO_SECRET_KEY": "k7#Qz9!vP2m@Lr5xT8wY1nB4cF6hJ3dS0gA-eU_iO+pK=tR&yW%",
    "DJANGO_ALLOWED_HOSTS": "capstone.example.org",
    "DATABASE_URL": "postgres://capstone:secret@db.internal:5432/capstone",
    "REDIS_URL": "redis://redis.internal:6379/0",
}


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=child_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_passes_check_deploy_at_warning_level() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key() -> None:
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "DJANGO_SECRET_KEY"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        env={k: v for k, v in child_env(**env).items() if k != "DJANGO_SECRET_KEY"},
    )
    assert result.returncode != 0 and "DJANGO_SECRET_KEY" in result.stderr


def test_a_database_url_that_is_not_a_url_is_named_as_the_cause() -> None:
    # CI once passed a URL preceded by a line PostgreSQL's tools printed; the settings
    # then failed far away with KeyError: 'ENGINE'.
    env = {**PRODUCTION_ENV, "DATABASE_URL": "Removed stale pid file.\npostgres://a:b@h/d"}
    result = manage("check", env=env)
    assert result.returncode != 0
    assert "DATABASE_URL must start with postgres://" in result.stderr
    assert "a:b@h" not in result.stderr, "the password must not be printed"


@pytest.mark.django_db
def test_no_model_change_lacks_a_migration() -> None:
    from django.core.management import call_command

    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
