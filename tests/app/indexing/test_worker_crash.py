"""Chaos: `kill -9` of the Celery worker in the middle of an index job; the next worker finishes it exactly."""
import os
import signal
import time

import pytest

from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import running_job_ids
from searchapp.indexing.parts import PART_RECORDS
from searchapp.models import Formula, IndexPart, Occurrence, Post
from searchapp.tasks import ping, run_index_job
from tests.conftest import start_worker, stop_worker
from tests.polling import job_until

LINES = 2000
DISTINCT = 1600
"""Every formula below DISTINCT is its own; the lines after it repeat earlier ones, which must not be stored twice."""
PER_POST = 4  # LINES is a multiple of it
FIRST_QUEUE = "chaos"
"""The killed worker alone reads this queue: the session's worker (conftest) reads `index` and would take the job."""


def formula(i: int) -> str:
    return rf"\frac{{x^{{{i}}} + {i % 7}}}{{y_{{{i % 11}}}}}"


def arqmath_tsv(lines: int = LINES) -> str:
    """Formulas of posts without text (ARQMath's formula file): a chunk takes seconds, not the minute words take."""
    rows = [f"{i}\t{i // PER_POST}\t1\tanswer\t{i % DISTINCT}\t{formula(i % DISTINCT)}" for i in range(lines)]
    return "\n".join(["id\tpost_id\tthread_id\ttype\tvisual_id\tformula", *rows]) + "\n"


@pytest.fixture
def workers(service_env):
    started = []

    def start(queues: str):
        started.append(start_worker(service_env, queues))
        return started[-1]
    yield start
    for worker in started:
        stop_worker(worker)


@pytest.mark.timeout(900)  # two workers starting and 2,000 lines on a loaded 2-core machine: no budget, a hang guard
@pytest.mark.django_db(transaction=True)
def test_a_job_whose_worker_is_killed_is_finished_exactly_by_the_next_worker(workers, tmp_path):
    path = tmp_path / "chaos.tsv"
    path.write_text(arqmath_tsv())
    first = workers(FIRST_QUEUE)
    ping.apply_async(queue=FIRST_QUEUE).get()  # ready: its start-up found no job to resume
    job = start_index_job(path, "arqmath", "chaos", enqueue=False)
    run_index_job.apply_async([job.pk], queue=FIRST_QUEUE)

    job_until(job, lambda job: job.cursor > 0)  # a chunk is committed
    os.kill(first.pid, signal.SIGKILL)
    first.wait(timeout=10)
    job.refresh_from_db()
    assert job.state == "running" and 0 < job.cursor < LINES, "the job ended before the kill"
    assert Occurrence.objects.filter(post__corpus=job.corpus).count() == job.cursor  # whole chunks, nothing half-stored

    workers("celery,index,index_small")  # as `serve` restarts its dead workers: one resumes orphaned jobs when ready,
    job_until(job, lambda job: job.pk in running_job_ids())  # not after the broker's hour of visibility timeout
    job = job_until(job, lambda job: job.state in ("done", "failed"), step=0.5)
    assert (job.state, job.cursor, job.done, job.failed, job.formulas_added) == ("done", LINES, LINES, 0, DISTINCT)
    assert Occurrence.objects.filter(post__corpus=job.corpus).count() == LINES
    assert Post.objects.filter(corpus=job.corpus).count() == LINES // PER_POST
    stored = Formula.objects.filter(corpus=job.corpus)
    assert stored.count() == stored.values("visual_key").distinct().count() == DISTINCT
    assert set(stored.values_list("latex", flat=True)) == {formula(i) for i in range(DISTINCT)}


@pytest.mark.timeout(1200)  # three workers starting and 4,000 lines on a loaded 2-core machine: a hang guard
@pytest.mark.django_db(transaction=True)
def test_a_part_whose_worker_is_killed_midway_is_resumed_from_its_cursor_by_two_others(workers, tmp_path):
    """Two parts of 2,000 lines: the first worker dies in the middle of the first; two workers then share the job,
    one resuming the killed part where its last chunk left it, the other taking the second part."""
    lines = 2 * PART_RECORDS
    path = tmp_path / "chaos.tsv"
    path.write_text(arqmath_tsv(lines))
    first = workers(FIRST_QUEUE)
    ping.apply_async(queue=FIRST_QUEUE).get()
    job = start_index_job(path, "arqmath", "chaos", enqueue=False)
    run_index_job.apply_async([job.pk], queue=FIRST_QUEUE)

    while not IndexPart.objects.filter(job=job, cursor__gt=0).exists():  # a chunk of a part is committed
        time.sleep(0.05)
    os.kill(first.pid, signal.SIGKILL)
    first.wait(timeout=10)
    [killed] = IndexPart.objects.filter(job=job, cursor__gt=0)
    assert killed.state == "running" and 0 < killed.cursor < PART_RECORDS, "the part ended before the kill"
    job.refresh_from_db()
    assert Occurrence.objects.filter(post__corpus=job.corpus).count() == job.cursor == killed.cursor

    workers("celery,index,index_small")  # each resumes the parts no runner holds when it is ready
    workers("celery,index,index_small")
    job = job_until(job, lambda job: job.state in ("done", "failed"), step=0.5)
    assert (job.state, job.cursor, job.done, job.failed, job.formulas_added) == ("done", lines, lines, 0, DISTINCT)
    assert list(job.parts.values_list("state", "cursor", "done")) == [("done", PART_RECORDS, PART_RECORDS)] * 2
    assert Occurrence.objects.filter(post__corpus=job.corpus).count() == lines
    assert Post.objects.filter(corpus=job.corpus).count() == lines // PER_POST
    stored = Formula.objects.filter(corpus=job.corpus)
    assert stored.count() == stored.values("visual_key").distinct().count() == DISTINCT
