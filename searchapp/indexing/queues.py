"""Which Celery queue runs a job, and where a waiting job stands in it: a small upload never waits behind a big one.

Two 1 KB uploads once sat "pending" for the whole 38-minute run of a book. Jobs of uploads up to SMALL_JOB_BYTES go
to their own queue (SMALL), which a worker of its own reads (`serve`, `docker/compose.yaml`), so they are done in
seconds whatever the big queue (BIG) holds. The size is the upload's on disk, measured when the job is enqueued.
"""
from __future__ import annotations

import os
from pathlib import Path

from searchapp.models import IndexJob

SMALL_JOB_BYTES = 2_000_000
"""A few papers, a chapter of notes: about a minute of work at most."""
BIG, SMALL = "index", "index_small"


def queue_for(path: str | Path) -> str:
    """SMALL for a file or folder of at most SMALL_JOB_BYTES, else BIG (a path that is gone: BIG)."""
    return SMALL if _bytes(Path(path), SMALL_JOB_BYTES) <= SMALL_JOB_BYTES else BIG


def _bytes(path: Path, enough: int) -> int:
    """The size of a file, or of a folder's files, counted no further than past `enough`."""
    try:
        if not path.is_dir():
            return path.stat().st_size
        total = 0
        for folder, _, names in os.walk(path):
            for name in names:
                total += os.stat(os.path.join(folder, name)).st_size
                if total > enough:
                    return total
        return total
    except OSError:
        return enough + 1


def place_in_queue(job: IndexJob) -> tuple[int, float | None]:
    """For a pending job: the jobs of its queue ahead of it (running, or pending and older), and the seconds they
    will take by what is known (a running one's remaining share of its elapsed time; None while any is unmeasured)."""
    queue = queue_for(job.path)
    ahead = [other for other in IndexJob.objects.filter(state__in=IndexJob.UNFINISHED, pk__lt=job.pk).order_by("pk")
             if queue_for(other.path) == queue]
    seconds: float | None = 0.0
    for other in ahead:
        remaining = _remaining_seconds(other)
        seconds = None if remaining is None or seconds is None else seconds + remaining
    return len(ahead), seconds


def _remaining_seconds(job: IndexJob) -> float | None:
    done, total = job.work
    if job.state != IndexJob.State.RUNNING or not total or not done or not job.seconds:
        return None
    return job.seconds * max(total - done, 0) / done
