"""A job's parts: what any worker may take of it (a document of an upload, a range of records of a file), one runner
at a time, and how what a part stores is counted on the part and on its job.

A runner takes a part by its Postgres session lock `(PART_LOCK_CLASS, part id)`: a second runner skips it, and a
runner that dies lets go of it with its connection, so the part is taken again from its cursor. Each transaction that
stores something of a part locks the part's row first (`lock_part`: a cancel waits for it, so it lands between two
chunks) and its job's row last (`advance`): parts storing at once wait on each other only for the job's counters,
for the instant before they commit, and never in a circle.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db import connection

from searchapp.models import IndexJob, IndexPart

PART_LOCK_CLASS = 7403
"""First key of the session advisory lock `(PART_LOCK_CLASS, part id)` that the runner of a part holds (jobs take
7401, `jobs.JOB_LOCK_CLASS`, and learning rounds 7402, `live.loop.LEARN_LOCK_CLASS`)."""
MAX_KEPT_ERRORS = 100
PART_RECORDS = 2000
"""Records of a file a part holds at least: a part costs a pass over the file up to its range (readers read from the
start), so a file is cut in few parts, enough to keep every worker busy."""
MAX_PARTS = 32
"""Parts of a file of records at most: reading up to their ranges costs at most 16 passes over the file, a few percent
of indexing it (reading a record takes microseconds, indexing it milliseconds)."""


class JobCancelled(Exception):
    """The job was cancelled (`jobs.cancel_jobs`), or another of its parts failed: the runner of a part stops before
    it stores or changes anything more."""

    def __init__(self, job_id: int):
        super().__init__(f"job {job_id} was cancelled")
        self.job_id = job_id


@dataclass
class ChunkOutcome:
    """What storing a chunk (or a document) added, counted on its part and its job by `advance`."""

    done: int = 0
    failed: int = 0
    formula_errors: int = 0
    added: int = 0
    """New visually distinct formulas."""
    errors: list[dict] = field(default_factory=list)
    timings: dict = field(default_factory=lambda: defaultdict(float))


def record_ranges(total: int) -> list[tuple[int, int]]:
    """[start, stop) of each part of a file of `total` records: about equal, of PART_RECORDS or more, MAX_PARTS at
    most; none for an empty file."""
    if not total:
        return []
    parts = max(1, min(MAX_PARTS, total // PART_RECORDS))
    bounds = [round(total * i / parts) for i in range(parts + 1)]
    return list(zip(bounds, bounds[1:]))


def claim_part(job: IndexJob) -> IndexPart | None:
    """The first part of the job still to do that no runner holds, now held by this session; None when there is
    none. Release it with `release_part`."""
    for part_id in job.parts.filter(state__in=IndexJob.UNFINISHED).order_by("number").values_list("pk", flat=True):
        if not _try_lock(part_id):
            continue
        part = IndexPart.objects.filter(pk=part_id, state__in=IndexJob.UNFINISHED).first()
        if part is not None:  # not ended by its last runner between the listing and the lock
            return part
        release_part(part_id)
    return None


def release_part(part_id: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [PART_LOCK_CLASS, part_id])


def held_part_ids() -> set[int]:
    """Parts some runner holds now."""
    return held_lock_ids(PART_LOCK_CLASS)


def held_lock_ids(lock_class: int) -> set[int]:
    """The second keys of the session locks `(lock_class, id)` some process holds now, in this database only:
    pg_locks shows the whole server's, and a job of another database on it (a benchmark's, a test's) with the same
    id would make ours look running, so it was never resumed."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT objid FROM pg_locks WHERE locktype = 'advisory' AND classid = %s AND objsubid = 2"
                       " AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
                       [lock_class])
        return {row[0] for row in cursor.fetchall()}


def _try_lock(part_id: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [PART_LOCK_CLASS, part_id])
        return cursor.fetchone()[0]


def lock_part(part_id: int) -> IndexPart:
    """The part's row, locked until the open transaction ends, with its job and corpus as read now (without the
    corpus's macros: decoding them for each of a re-sync's 3,085 documents took 284 of its 477 s); JobCancelled
    when it was cancelled (or its job failed), so that nothing more of it is stored."""
    part = (IndexPart.objects.select_related("job__corpus").defer("job__corpus__macros", "job__corpus__other_macros")
            .select_for_update(of=("self",)).get(pk=part_id))
    if part.state not in IndexJob.UNFINISHED or part.job.state not in IndexJob.UNFINISHED:
        raise JobCancelled(part.job_id)
    return part


def advance(part: IndexPart, consumed: int, outcome: ChunkOutcome, finished: bool = False, files: int = 0,
            bytes_read: int = 0, unchanged: int = 0) -> IndexJob:
    """Count what the open transaction stored of the part (locked by `lock_part`) on the part and on its job; the job
    as advanced. `finished`: the part is done. `files`, `bytes_read` and `unchanged` count a document's files read."""
    _add(part, consumed, outcome)
    if finished:
        part.state = IndexJob.State.DONE
    elif part.state == IndexJob.State.PENDING:
        part.state = IndexJob.State.RUNNING
    part.save(update_fields=["cursor", "done", "failed", "formula_errors", "formulas_added", "errors", "state"])
    job = IndexJob.objects.select_for_update().get(pk=part.job_id)  # last: held only until the commit
    _add(job, consumed, outcome)
    job.timings = summed_timings(job.timings, outcome.timings)
    job.files_read += files
    job.bytes_read += bytes_read
    job.unchanged += unchanged
    job.save(update_fields=["cursor", "done", "failed", "formula_errors", "formulas_added", "errors", "timings",
                            "files_read", "bytes_read", "unchanged"])
    return job


def _add(counted: IndexPart | IndexJob, consumed: int, outcome: ChunkOutcome) -> None:
    """The counters a part and its job share, advanced by what a chunk (or document) stored."""
    counted.cursor += consumed
    counted.done += outcome.done
    counted.failed += outcome.failed
    counted.formula_errors += outcome.formula_errors
    counted.formulas_added += outcome.added
    counted.errors = (counted.errors + outcome.errors)[:MAX_KEPT_ERRORS]


def summed_timings(recorded: dict, added: dict) -> dict:
    timings = dict(recorded)
    for stage, seconds in added.items():
        timings[stage] = round(timings.get(stage, 0.0) + seconds, 3)
    return timings
