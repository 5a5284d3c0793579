"""Running an indexing job: planned once into parts (a file of records counted, then cut in ranges; a documents upload
listed, a part a document), the parts run by whichever runners take them (`parts`), and the job ended once, when
every part is done: its postings merged, (documents) those gone from the upload removed. Its state goes from pending
to done, failed or cancelled. Staff cancel a job, or delete a corpus with its jobs, without waiting long on the locks
a runner holds.

A runner holds the Postgres session lock `(JOB_LOCK_CLASS, job id)`: shared while it runs parts (any number of
runners at once), exclusive while it plans or ends the job (one, alone). A runner that dies lets go of its locks with
its connection, so its part is taken again at once.
"""
from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

from corpora.corpus_files import read_records
from searchapp.errors import is_lock_wait
from searchapp.indexing.codebook import CodebookMismatch, ensure_codebook_loaded
from searchapp.indexing.documents import finish_documents, index_document, plan_documents
from searchapp.indexing.parts import (
    ChunkOutcome,
    JobCancelled,
    advance,
    claim_part,
    held_lock_ids,
    lock_part,
    record_ranges,
    release_part,
)
from searchapp.indexing.pipeline import CHUNK_SECONDS, Progress, add_timing, index_chunks
from searchapp.indexing.postings import merge_postings
from searchapp.indexing.posts import link_answers
from searchapp.models import Corpus, IndexJob, IndexPart

JOB_LOCK_CLASS = 7401
"""First key of the session advisory lock `(JOB_LOCK_CLASS, job id)` that the runners of a job hold."""
CANCEL_WAIT_SECONDS = 1
"""How long a cancel waits for the lock on each of a job's rows, which a runner holds while it stores a chunk (a
fraction of a second) or a document (`documents._replace`)."""
STOP_WAIT_SECONDS = 3
"""How long deleting a corpus waits for the runners of its cancelled jobs to stop (the rest of their chunk), and for
each row lock it needs: with the cancel's wait, it is done or says why within 5 s. It once waited 35 s on a
runner's locks, then answered that the database was unreachable."""


def run_job(job: IndexJob, progress: Progress | None = None, time_limit: int | None = None) -> IndexJob:
    """Plan the job unless that is done, run each of its parts that no other runner holds, from its cursor on, until
    none is left, and end the job if every part is done; the job as it is then.

    A job that ended, or that another process plans or ends right now, is left as it is. `time_limit` is the soft
    limit the task runs under (by default CELERY_TASK_SOFT_TIME_LIMIT's), which the job names when Celery stops it.
    """
    progress = progress or (lambda job: None)
    time_limit = time_limit or settings.CELERY_TASK_SOFT_TIME_LIMIT
    if plan_job(job, progress, time_limit) is not None:
        with _job_lock(job, shared=True) as held:
            if held:
                _run_parts(job, progress, time_limit)
        finish_job(job, time_limit)
    job.refresh_from_db()  # a corpus deleted meanwhile takes the row with it (`delete_corpora`): DoesNotExist
    return job


def plan_job(job: IndexJob, progress: Progress | None = None, time_limit: int | None = None) -> int | None:
    """Make the job's parts unless they are made (see the module); the parts made now (0 when they were made before,
    or the job ended), or None while another process plans or ends it. A file that cannot be read fails the job."""
    job.refresh_from_db()
    if job.planned or job.state not in IndexJob.UNFINISHED:
        return 0
    with _job_lock(job, shared=False) as held:
        if not held:
            return None
        job.refresh_from_db()  # as the last planner left it
        if job.planned or not IndexJob.objects.filter(pk=job.pk, state__in=IndexJob.UNFINISHED).update(
                state=IndexJob.State.RUNNING, started_at=job.started_at or timezone.now()):
            return 0
        with _failing_the_job(job, time_limit or settings.CELERY_TASK_SOFT_TIME_LIMIT):
            if job.format == IndexJob.Format.DOCUMENTS:
                return plan_documents(job, progress or (lambda job: None))
            return _plan_records(job, progress or (lambda job: None))
    return 0


def finish_job(job: IndexJob, time_limit: int | None = None) -> None:
    """End the running job if every part of it is done, once: merge its postings, link its answers to questions
    another part stored, remove the documents gone from its upload, and say how it went.

    Left to another runner when one holds the job's lock: the last to let go of it finds none. Waiting for it instead
    deadlocked: the ending's REINDEX CONCURRENTLY (`postings.merge_postings`) waits for every open statement, the
    waiting one too."""
    with _job_lock(job, shared=False) as held:
        job.refresh_from_db()
        if not held or job.state != IndexJob.State.RUNNING or not job.planned or job.parts.exclude(
                state=IndexJob.State.DONE).exists():
            return
        with _failing_the_job(job, time_limit or settings.CELERY_TASK_SOFT_TIME_LIMIT):
            if job.format == IndexJob.Format.DOCUMENTS:
                finish_documents(job)
            link_answers(job)
            started = time.perf_counter()
            merge_postings(job.corpus_id)
            add_timing(job, "merge", time.perf_counter() - started)
            job.refresh_from_db()
            if job.failed and not job.done and not job.unchanged:  # nothing but bad records: a failed upload
                _finish(job, IndexJob.State.FAILED, f"none of the {job.failed} records could be indexed; "
                                                    f"the first error: {job.record_unit} {job.errors[0]['line']}: "
                                                    f"{job.errors[0]['message']}")
            else:
                _finish(job, IndexJob.State.DONE, "")


def running_job_ids() -> set[int]:
    """Jobs some process runs right now (it holds their lock, shared or not)."""
    return held_lock_ids(JOB_LOCK_CLASS)


def cancel_jobs(jobs: QuerySet[IndexJob], by: str) -> list[int]:
    """Cancel the pending and running jobs among `jobs`, and their parts, in a transaction of its own; the ids
    cancelled.

    A runner stops before it stores its next chunk (`pipeline.store_chunk`) or document; what it stored stays, each
    chunk (or document) whole, and its pending postings stay searchable until the corpus's next job merges them. The
    parts' rows are locked before the jobs', in the order the runners lock them. Called inside another transaction,
    the cancel reaches runners only once that one commits.
    """
    with transaction.atomic():
        _wait_for_locks_at_most(CANCEL_WAIT_SECONDS)
        unfinished = list(jobs.filter(state__in=IndexJob.UNFINISHED).values_list("pk", flat=True))
        IndexPart.objects.filter(job__in=unfinished, state__in=IndexJob.UNFINISHED).update(
            state=IndexJob.State.CANCELLED)
        cancelled = list(IndexJob.objects.filter(pk__in=unfinished, state__in=IndexJob.UNFINISHED)
                         .select_for_update().values_list("pk", flat=True))
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


@contextmanager
def _job_lock(job: IndexJob, shared: bool) -> Iterator[bool]:
    """The job's session lock (see the module) for the block, if had at once."""
    kind = "_shared" if shared else ""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT pg_try_advisory_lock{kind}(%s, %s)", [JOB_LOCK_CLASS, job.pk])
        held = cursor.fetchone()[0]
    try:
        yield held
    finally:
        if held:
            with connection.cursor() as cursor:
                cursor.execute(f"SELECT pg_advisory_unlock{kind}(%s, %s)", [JOB_LOCK_CLASS, job.pk])


@contextmanager
def _failing_the_job(job: IndexJob, time_limit: int) -> Iterator[None]:
    """A file-level failure (a file or document it cannot read at all) in the block fails the job, as does its task's
    soft time limit; record-level ones are counted and kept in `errors`. A cancelled job stays cancelled."""
    try:
        yield
    except JobCancelled:
        pass
    except SoftTimeLimitExceeded:  # its hard limit, a little later, would leave it running, and resumed at the next start
        if not connection.is_usable():  # told in the middle of a query, which psycopg leaves running
            connection.close()
        _finish(job, IndexJob.State.FAILED, f"stopped after its time limit of {_duration(time_limit)}")
    except (OSError, ValueError, CodebookMismatch) as error:
        _finish(job, IndexJob.State.FAILED, str(error))


def _run_parts(job: IndexJob, progress: Progress, time_limit: int) -> None:
    """The parts of the job that no other runner holds, each taken by this runner alone (`parts.claim_part`), one
    after the other until none is left: the first not taken, which may be one whose runner died."""
    with _failing_the_job(job, time_limit):
        ensure_codebook_loaded()
    while (part := claim_part(job)) is not None:
        try:
            with _failing_the_job(job, time_limit):
                if job.format == IndexJob.Format.DOCUMENTS:
                    index_document(job, part, progress)
                else:
                    _index_records(job, part, progress)
        finally:
            release_part(part.pk)


def _index_records(job: IndexJob, part: IndexPart, progress: Progress) -> None:
    """A part of a file of records, from its cursor to the end of its range, then marked done."""
    records = read_records(Path(job.path), job.format)
    index_chunks(part, job.corpus, itertools.islice(records, part.start + part.cursor, part.stop), progress)
    with transaction.atomic():
        advance(lock_part(part.pk), 0, ChunkOutcome(), finished=True)


def _plan_records(job: IndexJob, progress: Progress) -> int:
    """Count the file's records (for the ETA), then cut them in parts; the parts made."""
    total = _count(job, progress)
    ranges = record_ranges(total)
    with transaction.atomic():
        IndexPart.objects.bulk_create(IndexPart(job=job, number=number, start=start, stop=stop)
                                      for number, (start, stop) in enumerate(ranges))
        _save_count(job, total=total, counted=total)
    job.total = job.counted = total
    progress(job)
    return len(ranges)


def _count(job: IndexJob, progress: Progress) -> int:
    """The file's records, read once before indexing them so the job's page shows a total and an ETA. Reading can
    take a while (a page of 19 MB: a minute), so the count so far is saved every CHUNK_SECONDS."""
    started = shown = time.perf_counter()
    counted = 0
    for counted, _ in enumerate(read_records(Path(job.path), job.format), start=1):
        if time.perf_counter() - shown >= CHUNK_SECONDS:
            _save_count(job, counted=counted)
            job.counted, shown = counted, time.perf_counter()
            progress(job)
    add_timing(job, "count", time.perf_counter() - started)
    return counted


def _save_count(job: IndexJob, **counts: int) -> None:
    """JobCancelled, with nothing saved, once the job is cancelled: counting checks at each save, as indexing does
    at each chunk."""
    if not IndexJob.objects.filter(pk=job.pk).exclude(state=IndexJob.State.CANCELLED).update(**counts):
        raise JobCancelled(job.pk)


def _finish(job: IndexJob, state: str, message: str) -> None:
    """The job's end, and its parts' still to do (their runners stop at their next chunk), unless it was cancelled
    meanwhile: that stays its end. The parts' rows are locked before the job's, as the runners lock them."""
    with transaction.atomic():
        IndexPart.objects.filter(job=job, state__in=IndexJob.UNFINISHED, job__state=IndexJob.State.RUNNING).update(
            state=state)
        IndexJob.objects.filter(pk=job.pk, state=IndexJob.State.RUNNING).update(state=state, message=message,
                                                                               finished_at=timezone.now())


def _duration(seconds: int) -> str:
    return f"{seconds // 60} min" if seconds % 60 == 0 else f"{seconds} s"
