"""The embedded default and local development: ``make run`` uses these."""

from __future__ import annotations

import secrets

from config.settings.base import *

# Off unless asked for (``make dev`` or DJANGO_DEBUG=1): ``make run`` is the real site, and
# Django's debug pages list every URL pattern and setting to whoever finds an error.
DEBUG = env.bool("DJANGO_DEBUG", default=False)


def _persistent_secret_key() -> str:
    """A key kept in the data folder, so sessions survive a restart of ``make run``."""
    path = DATA_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="") or _persistent_secret_key()
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"  # reset mails print to the console
# Serve static/ straight from the tree, DEBUG or not: no collectstatic step.
WHITENOISE_USE_FINDERS = True
# WhiteNoise serves STATIC_ROOT too and warns at every start while it is missing; here it
# stays empty.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# With DEBUG, edited static files are picked up per request; without it WhiteNoise reads
# the list (and each file's size) once at start: restart to see an edited file.
WHITENOISE_AUTOREFRESH = DEBUG

# SQLite has no INCLUDE columns in an index: it builds rating_change_history without them
# (they only speed PostgreSQL's reads), which Django would otherwise warn about at every start.
SILENCED_SYSTEM_CHECKS = ["models.W040"]
