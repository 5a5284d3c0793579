"""Jobs that end: past the soft time limit a job fails saying why and is not resumed; a cancelled job stops at its
next chunk (or count, or document) and keeps what it stored; a corpus whose job a runner holds is deleted once the
runner lets go, or is said to be busy, never waited on for long."""
import psycopg
import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.db import connection

from searchapp.indexing import jobs, pipeline
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import JOB_LOCK_CLASS, CorporaBusy, cancel_jobs, delete_corpora, run_job
from searchapp.models import Corpus, Formula, IndexJob, Occurrence, Post, SourceDocument
from searchapp.tasks import resume_interrupted_jobs, run_index_job
from tests.app.factories import FORMULAS
from tests.app.indexing.test_documents import BOOK, write
from tests.conftest import database_url

FIRST = 3
"""Records of the first chunk in these tests (`pipeline.FIRST_CHUNK`): FORMULAS' 8 take more than one chunk."""


@pytest.fixture(autouse=True)
def hour_long_time_limit(settings):
    """The soft time limit the failures name, whatever the environment sets."""
    settings.CELERY_TASK_SOFT_TIME_LIMIT = 3600


@pytest.fixture
def job(tmp_path, monkeypatch):
    """FORMULAS to index, in chunks of FIRST records and more."""
    monkeypatch.setattr(pipeline, "FIRST_CHUNK", FIRST)
    path = tmp_path / "formulas.txt"
    path.write_text("\n".join(FORMULAS) + "\n")
    return start_index_job(path, "latex", "jobs", enqueue=False)


def after_calls(count: int, action):
    """A progress callback that runs `action` on its `count`-th call (the first comes once the file is counted, then
    one after each stored chunk)."""
    calls = []

    def progress(job):
        calls.append(job.cursor)
        if len(calls) == count:
            action(job)
    return progress


def resumed(monkeypatch) -> list[int]:
    """The jobs a worker that starts now would enqueue."""
    enqueued: list[int] = []
    monkeypatch.setattr(run_index_job, "apply_async", lambda args, queue: enqueued.append(args[0]))
    resume_interrupted_jobs()
    return enqueued


@pytest.mark.django_db(transaction=True)  # committed chunks, as in a worker
def test_a_job_past_its_soft_time_limit_ends_failed_saying_so_and_is_not_resumed(job, monkeypatch):
    """Celery raises SoftTimeLimitExceeded wherever the task is: here inside the second chunk's transaction."""
    real, stored = pipeline._store_occurrences, []

    def times_out_in_the_second_chunk(*args):
        stored.append(args)
        if len(stored) == 2:
            raise SoftTimeLimitExceeded()
        real(*args)

    monkeypatch.setattr(pipeline, "_store_occurrences", times_out_in_the_second_chunk)
    job = run_job(job)
    assert (job.state, job.message) == ("failed", "stopped after its time limit of 60 min")
    assert job.cursor == FIRST and job.finished_at is not None
    assert Occurrence.objects.filter(post__corpus=job.corpus).count() == FIRST  # the second chunk rolled back whole
    assert Post.objects.filter(corpus=job.corpus).count() == FIRST
    assert job.pk not in resumed(monkeypatch)


@pytest.mark.django_db(transaction=True)
def test_a_job_told_its_time_is_up_in_the_middle_of_a_query_still_ends_failed(job, monkeypatch):
    """The limit is a signal, raised wherever the job is; psycopg cancels a query it interrupts only for Ctrl-C and
    exit, and leaves any other exception's query running on the connection, which then refuses the next."""
    def told_mid_query(job):
        connection.connection.pgconn.send_query(b"SELECT 1")  # sent, its result never read
        raise SoftTimeLimitExceeded()

    job = run_job(job, after_calls(2, told_mid_query))
    assert (job.state, job.message, job.cursor) == ("failed", "stopped after its time limit of 60 min", FIRST)


@pytest.mark.django_db(transaction=True)
def test_a_job_cancelled_between_chunks_stores_no_later_chunk(job, monkeypatch):
    job = run_job(job, after_calls(2, lambda job: cancel_jobs(IndexJob.objects.filter(pk=job.pk), by="ada")))
    assert (job.state, job.message, job.cursor, job.done) == ("cancelled", "cancelled by ada", FIRST, FIRST)
    assert Occurrence.objects.filter(post__corpus=job.corpus).count() == FIRST
    assert set(Formula.objects.filter(corpus=job.corpus).values_list("latex", flat=True)) == set(FORMULAS[:FIRST])
    assert job.pk not in resumed(monkeypatch)
    assert run_job(job).cursor == FIRST  # delivered again: nothing more


@pytest.mark.django_db(transaction=True)
def test_a_job_cancelled_while_it_counts_stops_at_its_next_count(job, monkeypatch):
    monkeypatch.setattr(jobs, "CHUNK_SECONDS", 0)  # the count saved at every record, and told to progress
    job = run_job(job, after_calls(1, lambda job: cancel_jobs(IndexJob.objects.filter(pk=job.pk), by="ada")))
    assert (job.state, job.counted, job.total, job.cursor) == ("cancelled", 1, None, 0)
    assert not Post.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_documents_job_cancelled_after_a_document_stores_no_other_and_removes_none(tmp_path):
    """Documents are stored one transaction each: the one stored before the cancel stays, and the job stops before
    the next, even one found unchanged, so a document gone from the upload is not removed at its end."""
    folder = tmp_path / "book"
    write(folder, {**BOOK, "notes/zeta.md": "# Zeta\n\n$$\\zeta(2) = \\frac{\\pi^2}{6}$$\n"})
    run_job(start_index_job(folder, "documents", "papers", enqueue=False))
    (folder / "notes" / "pythagoras.md").unlink()  # gone: removed at the job's end
    (folder / "main.tex").write_text(BOOK["main.tex"].replace("We study", "We now study"))  # read first
    job = start_index_job(folder, "documents", "papers", enqueue=False)
    job = run_job(job, after_calls(2, lambda job: cancel_jobs(IndexJob.objects.filter(pk=job.pk), by="ada")))
    assert (job.state, job.removed) == ("cancelled", 0)
    assert Post.objects.get(source_id="main.tex#spaces").body == "We now study spaces."
    assert sorted(SourceDocument.objects.values_list("path", flat=True)) == [
        "main.tex", "notes/pythagoras.md", "notes/zeta.md"]


@pytest.mark.django_db
def test_a_pending_job_cancelled_never_runs_and_an_ended_one_is_left_alone(job):
    done = run_job(start_index_job(job.path, "latex", "other", enqueue=False))
    assert cancel_jobs(IndexJob.objects.all(), by="ada") == [job.pk]
    assert run_index_job(job.pk) == "cancelled"
    assert not Post.objects.filter(corpus=job.corpus).exists()
    done.refresh_from_db()
    assert (done.state, done.message) == ("done", "")


@pytest.fixture
def other_session():
    """A second database session: another process holding a job's run lock, or a lock on a row."""
    session = psycopg.connect(database_url(connection.settings_dict), autocommit=True)
    yield session
    session.close()


@pytest.mark.django_db
def test_a_corpus_whose_runner_does_not_let_go_is_busy_and_kept(job, other_session, monkeypatch):
    monkeypatch.setattr(jobs, "STOP_WAIT_SECONDS", 0.1)
    other_session.execute("SELECT pg_advisory_lock(%s, %s)", [JOB_LOCK_CLASS, job.pk])  # as run_job holds it
    with pytest.raises(CorporaBusy) as busy:
        delete_corpora([job.corpus])
    assert busy.value.corpora == ["jobs"]
    assert Corpus.objects.filter(name="jobs").exists()
    other_session.execute("SELECT pg_advisory_unlock_all()")
    delete_corpora([job.corpus])
    assert not Corpus.objects.filter(name="jobs").exists() and not IndexJob.objects.exists()
