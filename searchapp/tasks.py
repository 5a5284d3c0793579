"""Celery tasks. Tasks take primary keys, re-fetch rows, and return quietly when a row is gone."""
import threading

from celery import shared_task
from celery.signals import worker_process_init, worker_ready
from django.db import connection

from searchapp.embedding import warm_up
from searchapp.indexing.jobs import run_job, running_job_ids
from searchapp.indexing.queues import queue_for
from searchapp.indexing.uploads import release_replaced_uploads, release_upload
from searchapp.models import IndexJob


@shared_task(name="searchapp.ping")
def ping() -> dict:
    """Round trip through broker, worker and database: proves a worker can do real work."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        database = cursor.fetchone()[0]
    return {"pong": True, "database": database}


@shared_task(name="searchapp.run_index_job", queue="index", bind=True)
def run_index_job(self, job_id: int) -> str | None:
    """Run (or resume) a job; a second delivery while it runs elsewhere changes nothing, nor one after it is done.
    Past its soft time limit (the sender's CELERY_TASK_SOFT_TIME_LIMIT, in the message) the job ends failed, saying so.

    An uploaded file goes once no job needs it (a job cancelled before it started needs it no more), and an earlier
    upload of the same name once this one replaced it (`searchapp.indexing.uploads`).
    """
    job = IndexJob.objects.filter(pk=job_id).exclude(state=IndexJob.State.DONE).first()
    if job is None:
        return None
    _, soft_limit = self.request.timelimit or (None, None)
    try:
        job = run_job(job, time_limit=soft_limit)
    except IndexJob.DoesNotExist:  # its corpus was deleted meanwhile, the job with it
        return None
    release_upload(job.path)
    release_replaced_uploads(job)
    return job.state


@worker_ready.connect
def resume_interrupted_jobs(**_) -> list[int]:
    """Enqueue the jobs left pending, or running without a live runner (the lock its worker held went with it); not
    those that ended, failed past their time limit or cancelled.

    A job already queued may be enqueued again: `run_job` makes the extra delivery a no-op.
    """
    unfinished = IndexJob.objects.filter(state__in=IndexJob.UNFINISHED)
    running = running_job_ids()
    orphans = [(job_id, path) for job_id, path in unfinished.values_list("pk", "path") if job_id not in running]
    for job_id, path in orphans:
        run_index_job.apply_async([job_id], queue=queue_for(path))
    return [job_id for job_id, _ in orphans]


@worker_process_init.connect
def load_models(**_) -> None:
    """Load the formula and text models as a worker process starts, beside it rather than before it is ready: an
    upload's first chunk waited for them (a few seconds of an upload that should be searchable within 10)."""
    threading.Thread(target=warm_up, name="warm-up", daemon=True).start()
