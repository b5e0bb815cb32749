"""Settings shared by every environment; each one reads what differs from the environment.

Nothing here needs an environment variable: with none set, the site runs in the embedded
default (SQLite in ``var/`` and the Redis that ``make run`` starts on port 6390).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent
env = environ.Env()

DATA_DIR = Path(env.str("CAPSTONE_DATA_DIR", default=str(BASE_DIR / "var")))
DATA_DIR.mkdir(parents=True, exist_ok=True)

EMBEDDED_REDIS_PORT = env.int("CAPSTONE_REDIS_PORT", default=6390)
REDIS_URL = env.str("REDIS_URL", default=f"redis://127.0.0.1:{EMBEDDED_REDIS_PORT}/0")

DEBUG = False
ALLOWED_HOSTS: list[str] = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])

INSTALLED_APPS = [
    "daphne",  # first, so runserver serves ASGI (WebSockets included)
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "axes",
    "accounts",
    "games",
    "tournaments",
    "talk",
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After WhiteNoise: static files answer before it and carry no policy (they are not pages).
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The visitor's language: the language cookie (the footer's picker), else Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    # A signed-in person's own language (their profile's, kept in the session) wins over it.
    "accounts.languages.session_language",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Inside sessions, auth, messages and the CSP: its 405 page is a whole page of the site.
    "web.method_not_allowed.method_not_allowed_page",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes requires
]

# A form refused by the CSRF check (most often a page opened before its person logged in
# again elsewhere) gets the site's own page, which its CSP allows, not Django's bare one.
CSRF_FAILURE_VIEW = "web.stale_form.stale_form_page"

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.context_processors.site",
                "web.context_processors.games",
            ],
        },
    },
    {
        # The live table's partials only (games/live/live_templates.py): drawn at every move.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "games.live.live_templates.environment"},
    },
]


def database_from_env(default: str | None) -> dict[str, Any]:
    """The database named by DATABASE_URL (required when ``default`` is None)."""
    url = env.str("DATABASE_URL") if default is None else env.str("DATABASE_URL", default=default)
    if not url.startswith(("postgres://", "postgresql://", "sqlite:///")):
        # django-environ would warn with the whole URL, password included, and return a
        # config without an engine; name the cause here instead.
        raise ImproperlyConfigured(
            "DATABASE_URL must start with postgres:// or sqlite:///; it starts with "
            f"{url.split('://')[0][:40]!r}"
        )
    config = env.db_url_config(url)
    if config["ENGINE"] == "django.db.backends.postgresql":
        # The parameters go to PostgreSQL apart from the statement, and a statement run often
        # is prepared (psycopg: after 5 runs on a connection). With Django's default,
        # client-side binding, psycopg quoted every parameter into the SQL in Python: 5% of a
        # saturated table server's samples (py-spy). Django turns
        # psycopg's preparing off unless asked (for poolers; docs/operations.md).
        options = config.setdefault("OPTIONS", {})
        options.setdefault("server_side_binding", True)
        options.setdefault("prepare_threshold", 5)
    elif config["ENGINE"] == "django.db.backends.sqlite3":
        # daphne and the Celery worker write at once: WAL lets readers proceed, IMMEDIATE
        # takes the write lock up front instead of failing with "database is locked".
        # synchronous=FULL syncs the log at every commit: with NORMAL a power cut could undo
        # moves already acknowledged. Its cost, measured A/B: docs/benchmarks.md, "SQLite's
        # durability".
        config["OPTIONS"] = {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
        }
    return config


DATABASES = {"default": database_from_env(default=f"sqlite:///{DATA_DIR / 'db.sqlite3'}")}
# Kept open between requests and socket frames: channels closes a connection older than this
# after every frame, and opening SQLite's again (with its PRAGMAs) took 12% of a busy table
# server's time (py-spy, bench/tables.py --saturate, 100 tables).
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "capstone",
    }
}


def channel_layer_host(url: str) -> dict[str, object]:
    """channels_redis waits up to ``RedisChannelLayer.brpop_timeout`` (5 s) in BZPOPMIN for a
    frame; redis-py 8 reads with a 5 s socket timeout by default, so an idle socket's read
    timed out and daphne closed it with 1011. The read timeout must outlast that wait."""
    from channels_redis.core import RedisChannelLayer

    return {
        "address": url,
        "socket_timeout": RedisChannelLayer.brpop_timeout + 10,
        "socket_connect_timeout": 5,
        "socket_keepalive": True,
        "health_check_interval": 30,
    }


CHANNEL_LAYER = env.str("CAPSTONE_CHANNEL_LAYER", default="pubsub")
"""``pubsub``: channels_redis's pub/sub layer (web/channel_layer.py), one PUBLISH per
announcement; ``lists``: its default layer, a Redis list per socket. Pub/sub measured faster
at every load on two cores (docs/benchmarks.md, "Live tables")."""
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": {
            "lists": "web.channel_layer.WaitingRedisChannelLayer",
            "pubsub": "web.channel_layer.RecoveringPubSubChannelLayer",
        }[CHANNEL_LAYER],
        "CONFIG": {"hosts": [channel_layer_host(REDIS_URL)], "prefix": "capstone:ws"},
    }
}

CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_RESULT_EXPIRES = timedelta(hours=1)
CELERY_TASK_ACKS_LATE = True  # a task whose worker dies mid-run is delivered again
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Analysis (where a solitaire game was lost, a table game's odds: seconds of solving each) has
# a queue and a worker of its own, so that a table's clock or bot never waits behind it.
ANALYSIS_QUEUE = "analysis"
CELERY_TASK_ROUTES = {"games.tasks.analyse_*": {"queue": ANALYSIS_QUEUE}}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    "clear-expired-sessions": {
        "task": "accounts.tasks.clear_expired_sessions",
        "schedule": timedelta(hours=6),
    },
    "forget-old-login-failures": {
        "task": "accounts.tasks.forget_old_login_failures",
        "schedule": timedelta(hours=6),
    },
    # Deals today's and the next days' daily challenges ahead of time (idempotent).
    "create-daily-challenges": {
        "task": "games.tasks.create_daily_challenges",
        "schedule": timedelta(hours=1),
    },
    # Turn clocks live in the database; this re-queues any overdue turn whose task was lost,
    # after moving clocks on if the site has just come back from an outage (LP-5).
    "sweep-overdue-turns": {"task": "games.tasks.sweep_overdue_turns", "schedule": timedelta(seconds=5)},
    # Starts tournaments on time and records any match result whose task was lost.
    "run-tournaments": {"task": "tournaments.tasks.run_tournaments", "schedule": timedelta(seconds=5)},
    # Tells entrants (a notice, and an e-mail unless turned off) that their tournament starts in
    # 5 minutes; each person once per tournament, however often it runs.
    "remind-tournament-entrants": {
        "task": "accounts.tasks.remind_tournament_entrants",
        "schedule": timedelta(seconds=30),
    },
    # Presence rows left by a server process that died (accounts.presence.STALE).
    "forget-stale-presence": {
        "task": "accounts.tasks.forget_stale_presence",
        "schedule": timedelta(minutes=1),
    },
    # TN-9: creates each series' editions ahead of time, one per slot (idempotent).
    "schedule-series": {"task": "tournaments.tasks.schedule_series", "schedule": timedelta(seconds=30)},
    # LP-8: e-mails each person whose turn-based games wait for them, at most one digest per
    # TURN_DIGEST_EVERY (accounts.turn_digest).
    "send-turn-digests": {"task": "accounts.tasks.send_turn_digests", "schedule": timedelta(minutes=5)},
}

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out attempt before checking it
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "accounts.validators.MinimumLengthValidator"},  # its refusal in every language
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Five wrong passwords for one username from one address lock that pair out for 15
# minutes; the user can still log in from elsewhere, so an attacker cannot lock them out.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# Ten wrong passwords from one address, whatever the usernames, lock that address for the
# same time: one guess against many accounts (password spraying) stops there too.
# accounts.throttle adds this limit to axes' own.
LOGIN_FAILURES_PER_ADDRESS = 10
AXES_HANDLER = "accounts.throttle.AccountAndAddressHandler"
AXES_LOCKOUT_CALLABLE = "accounts.throttle.lockout_response"
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "accounts.throttle.lockout_username"
# The client address is REMOTE_ADDR only: behind the proxy daphne (--proxy-headers) sets it
# from the X-Forwarded-For the proxy wrote. Headers a client can send itself never count
# (this matters if django-ipware is ever installed; without it axes reads REMOTE_ADDR).
AXES_IPWARE_META_PRECEDENCE_ORDER = ("REMOTE_ADDR",)
AXES_VERBOSE = False

# Security headers on every response, in every environment (dev and test see what
# production sends). No inline script anywhere: scripts come from /static/ only.
# Style attributes are allowed (the solitaire boards place each card with CSS variables
# in style="..."); <style> elements are not. Browsers without CSP3's -elem/-attr
# directives fall back to style-src, which allows both.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "style-src-elem": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'"],
        # CSP3 lets 'self' match ws:/wss: to the page's own host (the live tables' sockets).
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

SESSION_COOKIE_AGE = 60 * 60 * 24 * 30
SESSION_COOKIE_HTTPONLY = True

# The site's languages: adding one is a line here and its message files under locale/
# (README.md, "Adding a language"). LANGUAGE_CODE is the source language of every message, and
# the one for anyone whose browser asks for none of these.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("it", _("Italian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env.str("DJANGO_STATIC_ROOT", default=str(DATA_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

DEFAULT_FROM_EMAIL = env.str("DJANGO_DEFAULT_FROM_EMAIL", default="Capstone <noreply@capstone.localhost>")
# The site's address as people reach it, for links in e-mails sent outside a request (a
# tournament's reminder); empty: such e-mails carry no link.
SITE_URL = env.str("SITE_URL", default="").rstrip("/")
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

SITE_NAME = "Capstone"

# LP-8's e-mail digest: at most one per person this often, however many turn-based games wait;
# a turn is e-mailed about only once it has waited TURN_DIGEST_DELAY, so that people playing
# a turn-based game on the site at the same time are not e-mailed about the move they are making.
TURN_DIGEST_EVERY = timedelta(hours=3)
TURN_DIGEST_DELAY = timedelta(minutes=5)

# Live tables: a bot waits this long before moving, so people can follow the play; a tie
# replay (TR-14, BL-8) is dealt this long after the showdown that caused it.
TABLE_BOT_DELAY_S = env.float("CAPSTONE_BOT_DELAY_S", default=1.0)
TABLE_TIE_REPLAY_DELAY_S = env.float("CAPSTONE_TIE_REPLAY_DELAY_S", default=5.0)
# LP-9: how long an invitation to a table waits for its answer: a live table's people are
# there now, a turn-based table's may answer tomorrow.
INVITATION_LIVE_EXPIRY_S = 10 * 60
INVITATION_TURN_BASED_EXPIRY_S = 24 * 3600
# LP-5 outages: every web process and every worker records a heartbeat this often; the site
# is down while either has been silent for SITE_DOWN_AFTER_S, and when it comes back after
# a longer gap every running game's clock moves on by the gap (games/live/outages.py).
SITE_HEARTBEAT_S = env.float("CAPSTONE_HEARTBEAT_S", default=2.0)
SITE_DOWN_AFTER_S = env.float("CAPSTONE_DOWN_AFTER_S", default=10.0)
# bench/tables.py --bare needs a bench-only socket (web/bench_consumers.py) that fans frames
# out for anyone, with no limit: routed only when this is set, never by default.
BENCH_ROUTES = env.bool("CAPSTONE_BENCH_ROUTES", default=False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("DJANGO_LOG_LEVEL", default="INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}
