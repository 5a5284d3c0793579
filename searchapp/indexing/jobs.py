"""Running an indexing job: one runner at a time (a Postgres session lock), its state from pending to done,
failed or cancelled, and which reader it takes: a file of records is counted, then indexed from its cursor on
(`pipeline`); a `documents` upload is kept in sync document by document (`documents`). Staff cancel a job, or
delete a corpus with its jobs, without waiting long on the locks a runner holds.
"""
from __future__ import annotations

import itertools
import time
from pathlib import Path

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

from ml.data.corpus_files import read_records
from searchapp.errors import is_lock_wait
from searchapp.indexing.codebook import CodebookMismatch, ensure_codebook_loaded
from searchapp.indexing.documents import sync_documents
from searchapp.indexing.pipeline import CHUNK_SECONDS, JobCancelled, Progress, add_timing, index_chunks
from searchapp.indexing.postings import merge_postings
from searchapp.models import Corpus, IndexJob

JOB_LOCK_CLASS = 7401
"""First key of the session advisory lock `(JOB_LOCK_CLASS, job id)` that a running job holds."""
CANCEL_WAIT_SECONDS = 1
"""How long a cancel waits for the lock on a job's row, which its runner holds while it stores a chunk (a fraction
of a second) or a document (`documents._replace`)."""
STOP_WAIT_SECONDS = 3
"""How long deleting a corpus waits for the runners of its cancelled jobs to stop (the rest of their chunk), and for
each row lock it needs: with the cancel's wait, it is done or says why within 5 s. It once waited 35 s on a
runner's locks, then answered that the database was unreachable."""


def run_job(job: IndexJob, progress: Progress | None = None, time_limit: int | None = None) -> IndexJob:
    """Index the job's file from its cursor to the end, unless another process runs it now or it has ended.

    The job holds a Postgres session lock while it runs: a second delivery of its task returns at once,
    and a worker that dies releases the lock with its connection, so the job can be resumed right away.
    `time_limit` is the soft limit its task runs under (by default CELERY_TASK_SOFT_TIME_LIMIT's), which the job
    names when Celery stops it there.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [JOB_LOCK_CLASS, job.pk])
        if not cursor.fetchone()[0]:
            job.refresh_from_db()
            return job
    try:
        job.refresh_from_db()  # the cursor as the last runner committed it
        if job.state in IndexJob.UNFINISHED:
            _run_locked(job, progress or (lambda job: None), time_limit or settings.CELERY_TASK_SOFT_TIME_LIMIT)
            job.refresh_from_db()  # before letting go: a corpus deleted then takes the row with it (`delete_corpora`)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [JOB_LOCK_CLASS, job.pk])
    return job


def running_job_ids() -> set[int]:
    """Jobs some process is running right now (it holds their lock).

    Only this database's locks: pg_locks shows the whole server's, and a job of another database on it (a
    benchmark's, a test's) with the same id would make ours look running, so it was never resumed.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT objid FROM pg_locks WHERE locktype = 'advisory' AND classid = %s AND objsubid = 2"
                       " AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
                       [JOB_LOCK_CLASS])
        return {row[0] for row in cursor.fetchall()}


def cancel_jobs(jobs: QuerySet[IndexJob], by: str) -> list[int]:
    """Cancel the pending and running jobs among `jobs`, in a transaction of its own; the ids cancelled.

    A runner stops before it stores its next chunk (`pipeline.store_chunk`); what it stored stays, each chunk (or
    document) whole, and its pending postings stay searchable until the corpus's next job merges them. Called inside
    another transaction, the cancel reaches runners only once that one commits.
    """
    with transaction.atomic():
        _wait_for_locks_at_most(CANCEL_WAIT_SECONDS)
        cancelled = list(jobs.filter(state__in=IndexJob.UNFINISHED).select_for_update().values_list("pk", flat=True))
        IndexJob.objects.filter(pk__in=cancelled).update(state=IndexJob.State.CANCELLED, message=f"cancelled by {by}",
                                                         finished_at=timezone.now())
    return cancelled


class CorporaBusy(Exception):
    """Corpora not deleted, because that took more than STOP_WAIT_SECONDS: the runner of one of their jobs had not
    stopped yet (it does after its current chunk, once the job is cancelled), or another transaction held a row."""

    def __init__(self, corpora: list[str]):
        names = ", ".join(corpora)
        busy = f"the corpus {names} is busy" if len(corpora) == 1 else f"the corpora {names} are busy"
        super().__init__(f"{busy}: an indexing job of it had not stopped within {STOP_WAIT_SECONDS} s (cancelled, it "
                         "stops after its current chunk), or other work held its rows")
        self.corpora = corpora


def delete_corpora(corpora: list[Corpus]) -> None:
    """Delete the corpora and all they hold, all or none, once the runners of their jobs have let go of them;
    CorporaBusy when they, or any lock the deletion needs, take longer than STOP_WAIT_SECONDS. Cancel their jobs
    first (`cancel_jobs`), or the runners go on to the end of their job."""
    try:
        with transaction.atomic():
            _wait_for_locks_at_most(STOP_WAIT_SECONDS)
            running = running_job_ids() & set(IndexJob.objects.filter(corpus__in=corpora).values_list("pk", flat=True))
            with connection.cursor() as cursor:
                # Before any row of a corpus is touched: a runner writing them never waits on this transaction.
                for job_id in sorted(running):
                    cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [JOB_LOCK_CLASS, job_id])
            Corpus.objects.filter(pk__in=[corpus.pk for corpus in corpora]).delete()
    except OperationalError as error:
        if not is_lock_wait(error):
            raise
        raise CorporaBusy([corpus.name for corpus in corpora]) from error


def _wait_for_locks_at_most(seconds: float) -> None:
    """For the rest of the open transaction: a lock not had within `seconds` raises OperationalError."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [f"{round(seconds * 1000)}ms"])


def _run_locked(job: IndexJob, progress: Progress, time_limit: int) -> None:
    """A file-level failure (one it cannot read at all) marks the job failed, as does its task's soft time limit;
    record-level ones are counted and kept in `errors`. A job cancelled meanwhile stays cancelled."""
    if not IndexJob.objects.filter(pk=job.pk, state__in=IndexJob.UNFINISHED).update(
            state=IndexJob.State.RUNNING, started_at=job.started_at or timezone.now()):
        return  # cancelled since it was read
    try:
        if job.format == IndexJob.Format.DOCUMENTS:
            ensure_codebook_loaded()
            sync_documents(job, progress)
        else:
            _index_file(job, progress)
        started = time.perf_counter()
        merge_postings(job.corpus_id)
        add_timing(job, "merge", time.perf_counter() - started)
    except JobCancelled:
        return
    except SoftTimeLimitExceeded:  # its hard limit, a little later, would leave it running, and resumed at the next start
        if not connection.is_usable():  # told in the middle of a query, which psycopg leaves running
            connection.close()
        _finish(job, IndexJob.State.FAILED, f"stopped after its time limit of {_duration(time_limit)}")
    except (OSError, ValueError, CodebookMismatch) as error:
        _finish(job, IndexJob.State.FAILED, str(error))
    else:
        job.refresh_from_db()
        if job.failed and not job.done and not job.unchanged:  # nothing but bad records: a failed upload
            _finish(job, IndexJob.State.FAILED, f"none of the {job.failed} records could be indexed; "
                                                f"the first error: {job.record_unit} {job.errors[0]['line']}: "
                                                f"{job.errors[0]['message']}")
        else:
            _finish(job, IndexJob.State.DONE, "")


def _index_file(job: IndexJob, progress: Progress) -> None:
    """A file of records, counted first (for the ETA), from the job's cursor on."""
    if job.total is None:
        _count(job, progress)
        progress(job)
    ensure_codebook_loaded()
    index_chunks(job, itertools.islice(read_records(Path(job.path), job.format), job.cursor, None), progress)


def _count(job: IndexJob, progress: Progress) -> None:
    """The file's records, read once before indexing them so the job's page shows a total and an ETA. Reading can
    take a while (a folder of LaTeX documents: a minute), so the count so far is saved every CHUNK_SECONDS."""
    started = shown = time.perf_counter()
    counted = 0
    for counted, _ in enumerate(read_records(Path(job.path), job.format), start=1):
        if time.perf_counter() - shown >= CHUNK_SECONDS:
            _save_count(job, counted=counted)
            job.counted, shown = counted, time.perf_counter()
            progress(job)
    job.total = job.counted = counted
    _save_count(job, total=counted, counted=counted)
    add_timing(job, "count", time.perf_counter() - started)


def _save_count(job: IndexJob, **counts: int) -> None:
    """JobCancelled, with nothing saved, once the job is cancelled: counting checks at each save, as indexing does
    at each chunk."""
    if not IndexJob.objects.filter(pk=job.pk).exclude(state=IndexJob.State.CANCELLED).update(**counts):
        raise JobCancelled(job.pk)


def _finish(job: IndexJob, state: str, message: str) -> None:
    """The job's end, unless it was cancelled meanwhile: that stays its end."""
    IndexJob.objects.filter(pk=job.pk, state=IndexJob.State.RUNNING).update(state=state, message=message,
                                                                           finished_at=timezone.now())


def _duration(seconds: int) -> str:
    return f"{seconds // 60} min" if seconds % 60 == 0 else f"{seconds} s"
