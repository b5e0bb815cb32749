"""The Celery app: tasks live in each app's ``tasks.py``; the beat schedule is in settings."""

from __future__ import annotations

from celery import Celery

# No default for DJANGO_SETTINGS_MODULE here: this module is imported by every process
# (through config/__init__.py), and each entry point (manage.py, asgi.py, the embedded
# launcher, production units) names its own settings.

app = Celery("capstone")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="capstone.ping")
def ping() -> str:
    """The round trip that /healthz asks a worker for."""
    return "pong"
