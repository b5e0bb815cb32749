"""Project configuration: settings, URL and WebSocket routing, the Celery app."""

from config.celery import app as celery_app

__all__ = ["celery_app"]
