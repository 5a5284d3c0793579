"""Celery tasks. Tasks take primary keys, re-fetch rows, and return quietly when a row is gone."""
from datetime import timedelta

from celery import shared_task
from celery.signals import worker_ready
from django.db import connection
from django.utils import timezone

STALE_AFTER = timedelta(minutes=2)
"""A running job whose heartbeat is older than this lost its worker (chunks beat every few seconds)."""


@shared_task(name="searchapp.ping")
def ping() -> dict:
    """Round trip through broker, worker and database: proves a worker can do real work."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        database = cursor.fetchone()[0]
    return {"pong": True, "database": database}


@shared_task(name="searchapp.run_index_job", queue="index")
def run_index_job(job_id: int) -> str | None:
    from searchapp.indexing import run_job
    from searchapp.models import IndexJob

    job = IndexJob.objects.filter(pk=job_id).exclude(state=IndexJob.State.DONE).first()
    if job is None:
        return None
    return run_job(job).state


@worker_ready.connect
def resume_interrupted_jobs(**_) -> None:
    """Re-enqueue jobs left pending or running by a worker that died, so they resume from their cursor."""
    from django.db.models import Q

    from searchapp.models import IndexJob

    stale = Q(state=IndexJob.State.RUNNING, heartbeat_at__lt=timezone.now() - STALE_AFTER)
    for job_id in IndexJob.objects.filter(stale | Q(state=IndexJob.State.PENDING)).values_list("pk", flat=True):
        run_index_job.delay(job_id)
