import psycopg
import pytest
from django.db import connection

from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import JOB_LOCK_CLASS, running_job_ids
from searchapp.indexing.queues import SMALL
from searchapp.models import Formula, IndexJob
from searchapp.tasks import ping, resume_interrupted_jobs, run_index_job
from tests.conftest import database_url, start_worker, stop_worker
from tests.polling import job_until


@pytest.mark.django_db(transaction=True)
def test_ping_runs_in_a_real_worker_process(celery_worker_process):
    result = ping.delay().get()
    assert result == {"pong": True, "database": connection.settings_dict["NAME"]}
    assert celery_worker_process.poll() is None


@pytest.fixture
def other_worker():
    """A second database session, standing in for another worker: it can hold a job's run lock."""
    session = psycopg.connect(database_url(connection.settings_dict), autocommit=True)
    yield session
    session.close()


def hold_run_lock(session, job_id: int) -> None:
    session.execute("SELECT pg_advisory_lock(%s, %s)", [JOB_LOCK_CLASS, job_id])


@pytest.fixture
def job(tmp_path):
    path = tmp_path / "formulas.txt"
    path.write_text("x^2\ny^2\n\\frac{a}{b}\n")
    return start_index_job(path, "latex", "once", enqueue=False)


@pytest.mark.django_db(transaction=True)
def test_a_second_delivery_while_the_job_runs_elsewhere_changes_nothing(job, other_worker):
    hold_run_lock(other_worker, job.pk)
    assert run_index_job(job.pk) == "pending"
    job.refresh_from_db()
    assert (job.state, job.cursor, job.done) == ("pending", 0, 0)
    other_worker.execute("SELECT pg_advisory_unlock_all()")
    assert run_index_job(job.pk) == "done"
    assert run_index_job(job.pk) is None  # delivered again after it finished
    job.refresh_from_db()
    assert (job.cursor, job.done, Formula.objects.filter(corpus=job.corpus).count()) == (3, 3, 3)


@pytest.mark.django_db(transaction=True)
def test_resume_enqueues_pending_and_orphaned_jobs_only(tmp_path, other_worker, monkeypatch):
    path = tmp_path / "f.txt"
    path.write_text("x\n")
    jobs = {name: start_index_job(path, "latex", "resume", enqueue=False) for name in
            ("pending", "orphaned", "running", "done")}
    IndexJob.objects.filter(pk__in=[jobs["orphaned"].pk, jobs["running"].pk]).update(state="running")
    IndexJob.objects.filter(pk=jobs["done"].pk).update(state="done")
    hold_run_lock(other_worker, jobs["running"].pk)
    enqueued = []
    monkeypatch.setattr(run_index_job, "apply_async", lambda args, queue: enqueued.append((*args, queue)))
    assert sorted(resume_interrupted_jobs()) == sorted([jobs["pending"].pk, jobs["orphaned"].pk])
    assert sorted(enqueued) == sorted([(jobs["pending"].pk, SMALL), (jobs["orphaned"].pk, SMALL)])  # as it started


@pytest.mark.django_db(transaction=True)
def test_a_lock_held_in_another_database_does_not_hide_an_orphan(job, monkeypatch):
    """pg_locks lists the whole server's locks: a job with the same id in another database is not ours."""
    elsewhere = psycopg.connect(database_url({**connection.settings_dict, "NAME": "postgres"}), autocommit=True)
    hold_run_lock(elsewhere, job.pk)
    IndexJob.objects.filter(pk=job.pk).update(state="running")
    enqueued = []
    monkeypatch.setattr(run_index_job, "apply_async", lambda args, queue: enqueued.append(args[0]))
    try:
        assert resume_interrupted_jobs() == enqueued == [job.pk]
    finally:
        elsewhere.close()


@pytest.mark.django_db
def test_a_missing_job_is_skipped_quietly():
    assert run_index_job(987654321) is None


TIME_LIMITED = "time-limited"
"""The prefork worker's queue: the session's (solo) worker must not take its job."""


@pytest.fixture
def prefork_worker(service_env):
    """A prefork worker, as `serve` runs one: the pool that enforces time limits."""
    worker = start_worker(service_env, TIME_LIMITED, pool="prefork")
    ping.apply_async(queue=TIME_LIMITED).get()  # ready: its start-up found no job to resume
    yield worker
    stop_worker(worker)


@pytest.mark.django_db(transaction=True)
def test_a_job_past_the_soft_time_limit_in_a_real_worker_fails_saying_so_and_is_not_resumed(
        prefork_worker, endless_file, monkeypatch):
    """The limits travel in the task's message (the sender's settings); here a second, and a minute more."""
    job = start_index_job(endless_file.path, "latex", "endless", enqueue=False)
    run_index_job.apply_async([job.pk], queue=TIME_LIMITED, soft_time_limit=1, time_limit=61)
    job = job_until(job, lambda job: job.state != "pending" and job.pk not in running_job_ids())
    assert (job.state, job.message) == ("failed", "stopped after its time limit of 1 s")
    enqueued = []
    monkeypatch.setattr(run_index_job, "apply_async", lambda args, queue: enqueued.append(args[0]))
    assert resume_interrupted_jobs() == enqueued == []
    assert prefork_worker.poll() is None  # told, not killed: the hard limit is a minute later

