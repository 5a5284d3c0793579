"""Celery tasks. Tasks take primary keys, re-fetch rows, and return quietly when a row is gone."""
import threading

from celery import shared_task
from celery.signals import worker_process_init, worker_ready
from django.db import connection

from searchapp.embedding import warm_up
from searchapp.indexing.jobs import plan_job, run_job, running_job_ids
from searchapp.indexing.parts import held_part_ids
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
    """Plan the job if no one has, then run the parts of it that no other runner holds, and end it after its last
    (`indexing.jobs.run_job`); the job's state. The delivery that plans the job sends one more delivery per part to
    the queue it came from (a small job's stays on the small queue), so that every worker reading that queue takes
    parts of it. A delivery that finds no part to take, or comes after the job ended, changes nothing.
    Past its soft time limit (the sender's CELERY_TASK_SOFT_TIME_LIMIT, in the message) the job ends failed, saying so.

    An uploaded file goes once no job needs it (a job cancelled before it started needs it no more), and an earlier
    upload of the same name once this one replaced it (`searchapp.indexing.uploads`).
    """
    job = IndexJob.objects.filter(pk=job_id).exclude(state=IndexJob.State.DONE).first()
    if job is None:
        return None
    hard_limit, soft_limit = self.request.timelimit or (None, None)
    try:
        planned = plan_job(job, time_limit=soft_limit) or 0
        if not (self.request.called_directly or self.request.is_eager):  # run here, it runs every part itself
            for _ in range(planned - 1):
                self.apply_async([job.pk], queue=self.request.delivery_info["routing_key"], time_limit=hard_limit,
                                 soft_time_limit=soft_limit)
        job = run_job(job, time_limit=soft_limit)
    except IndexJob.DoesNotExist:  # its corpus was deleted meanwhile, the job with it
        return None
    release_upload(job.path)
    release_replaced_uploads(job)
    return job.state


@worker_ready.connect
def resume_interrupted_jobs(**_) -> list[int]:
    """Enqueue the jobs left pending, or running without a live runner (the locks its runners held went with them):
    one for each part of a job that no runner holds, or one to plan or end a job that no runner holds; none for jobs
    that ended, failed past their time limit or were cancelled. The job of each delivery sent.

    A job or part already queued may be enqueued again: `run_job` makes the extra delivery a no-op.
    """
    running, held = running_job_ids(), held_part_ids()
    enqueued = []
    for job in IndexJob.objects.filter(state__in=IndexJob.UNFINISHED).order_by("pk"):
        deliveries = job.parts.filter(state__in=IndexJob.UNFINISHED).exclude(pk__in=held).count()
        if not deliveries and job.pk not in running:  # to plan it, or to end it (its last runner died ending it)
            deliveries = 1
        for _delivery in range(deliveries):
            run_index_job.apply_async([job.pk], queue=queue_for(job.path))
            enqueued.append(job.pk)
    return enqueued


@worker_process_init.connect
def load_models(**_) -> None:
    """Load the formula and text models as a worker process starts, beside it rather than before it is ready: an
    upload's first chunk waited for them (a few seconds of an upload that should be searchable within 10)."""
    threading.Thread(target=warm_up, name="warm-up", daemon=True).start()
