"""Production: PostgreSQL, Redis, HTTPS behind a proxy; every secret from the environment.

Required: DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS, DATABASE_URL, REDIS_URL.
See docs/operations.md.
"""

from __future__ import annotations

from config.settings.base import *

DEBUG = False
SECRET_KEY = env.str("DJANGO_SECRET_KEY")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env.list(
    "DJANGO_CSRF_TRUSTED_ORIGINS", default=[f"https://{h}" for h in ALLOWED_HOSTS]
)
DATABASES = {"default": database_from_env(default=None)}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

# The proxy terminates TLS and says so in X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the proxy's health probe speaks plain HTTP
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True


def socket_sources(hosts: list[str]) -> list[str]:
    """wss: sources for the allowed hosts. CSP3 lets 'self' match the page's own wss: origin
    (the live tables' sockets); browsers older than that rule need the origins named."""
    sources: list[str] = []
    for host in hosts:
        if host == "*":
            continue
        if host.startswith("."):  # Django's ".example.org": the domain and its subdomains
            sources += [f"wss://{host[1:]}", f"wss://*{host}"]
        else:
            sources.append(f"wss://{host}")
    return sources


CONTENT_SECURITY_POLICY = {
    **CONTENT_SECURITY_POLICY,
    "DIRECTIVES": {
        **CONTENT_SECURITY_POLICY["DIRECTIVES"],
        "connect-src": ["'self'", *socket_sources(ALLOWED_HOSTS)],
    },
}

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
