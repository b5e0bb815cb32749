"""The test suite: real PostgreSQL and Redis, given by DATABASE_URL and REDIS_URL.

``make test`` (scripts/test) starts both when they are not given.
"""

from __future__ import annotations

from config.settings.base import *

SECRET_KEY = "test-only-secret-key-that-is-long-enough-to-look-real-0123456789"
DATABASES = {"default": database_from_env(default="postgres://capstone:capstone@127.0.0.1:5432/capstone")}
DATABASES["default"]["TEST"] = {"NAME": env.str("CAPSTONE_TEST_DB", default="test_capstone")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's, flushing with DELETE: config/test_postgres/base.py says why.
    DATABASES["default"]["ENGINE"] = "config.test_postgres"
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed; production uses the default
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
# Two test runs may share one Redis (a developer's and CI's): each worker takes tasks
# only from the queue named after its own test database.
CELERY_TASK_DEFAULT_QUEUE = f"tasks-{DATABASES['default']['TEST']['NAME']}"
ANALYSIS_QUEUE = f"analysis-{DATABASES['default']['TEST']['NAME']}"
CELERY_TASK_ROUTES = {"games.tasks.analyse_*": {"queue": ANALYSIS_QUEUE}}

TABLE_BOT_DELAY_S = 0.05
TABLE_TIE_REPLAY_DELAY_S = 0.3
