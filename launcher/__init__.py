"""`make run`'s supervisor: Redis, daphne, the Celery worker and beat on one machine."""
