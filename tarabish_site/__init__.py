"""Project package: settings, URLs, the WSGI/ASGI entry points and the Celery app."""

from tarabish_site.celery import app as celery_app

__all__ = ["celery_app"]
