"""The embedded default and local development: ``make run`` uses these."""

from __future__ import annotations

import secrets

from config.settings.base import *

DEBUG = env.bool("DJANGO_DEBUG", default=True)


def _persistent_secret_key() -> str:
    """A key kept in the data folder, so sessions survive a restart of ``make run``."""
    path = DATA_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="") or _persistent_secret_key()
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"  # reset mails print to the console
WHITENOISE_USE_FINDERS = True  # serve static/ straight from the tree: no collectstatic step
WHITENOISE_AUTOREFRESH = DEBUG
