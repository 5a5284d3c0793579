"""Running an indexing job: one runner at a time (a Postgres session lock), its state from pending to done or
failed, and which reader it takes: a file of records is counted, then indexed from its cursor on
(`pipeline`); a `documents` upload is kept in sync document by document (`documents`).
"""
from __future__ import annotations

import itertools
import time
from pathlib import Path

from django.db import connection
from django.utils import timezone

from ml.data.corpus_files import read_records
from searchapp.indexing.codebook import CodebookMismatch, ensure_codebook_loaded
from searchapp.indexing.documents import sync_documents
from searchapp.indexing.pipeline import CHUNK_SECONDS, Progress, add_timing, index_chunks
from searchapp.indexing.postings import merge_postings
from searchapp.models import IndexJob

JOB_LOCK_CLASS = 7401
"""First key of the session advisory lock `(JOB_LOCK_CLASS, job id)` that a running job holds."""


def run_job(job: IndexJob, progress: Progress | None = None) -> IndexJob:
    """Index the job's file from its cursor to the end, unless another process runs it now or it is done.

    The job holds a Postgres session lock while it runs: a second delivery of its task returns at once,
    and a worker that dies releases the lock with its connection, so the job can be resumed right away.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [JOB_LOCK_CLASS, job.pk])
        if not cursor.fetchone()[0]:
            job.refresh_from_db()
            return job
    try:
        job.refresh_from_db()  # the cursor as the last runner committed it
        if job.state != IndexJob.State.DONE:
            _run_locked(job, progress or (lambda job: None))
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [JOB_LOCK_CLASS, job.pk])
    job.refresh_from_db()
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


def _run_locked(job: IndexJob, progress: Progress) -> None:
    """A file-level failure (one it cannot read at all) marks the job failed; record-level ones are counted and
    kept in `errors`."""
    IndexJob.objects.filter(pk=job.pk).update(state=IndexJob.State.RUNNING, started_at=job.started_at or timezone.now())
    try:
        if job.format == IndexJob.Format.DOCUMENTS:
            ensure_codebook_loaded()
            sync_documents(job, progress)
        else:
            _index_file(job, progress)
        started = time.perf_counter()
        merge_postings(job.corpus_id)
        add_timing(job, "merge", time.perf_counter() - started)
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
            IndexJob.objects.filter(pk=job.pk).update(counted=counted)
            job.counted, shown = counted, time.perf_counter()
            progress(job)
    job.total = job.counted = counted
    IndexJob.objects.filter(pk=job.pk).update(total=counted, counted=counted)
    add_timing(job, "count", time.perf_counter() - started)


def _finish(job: IndexJob, state: str, message: str) -> None:
    IndexJob.objects.filter(pk=job.pk).update(state=state, message=message, finished_at=timezone.now())
