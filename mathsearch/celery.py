"""The Celery application, configured from Django settings (names prefixed CELERY_)."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mathsearch.settings")

app = Celery("mathsearch")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
