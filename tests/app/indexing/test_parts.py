"""A job cut in parts: ranges of records or documents, each taken by one runner at a time, the job done only once
every part is, its answers linked to questions another part stored."""
import json

import psycopg
import pytest
from django.db import connection, transaction

from searchapp.indexing import parts
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import cancel_jobs, plan_job, run_job
from searchapp.indexing.parts import PART_LOCK_CLASS, claim_part, lock_part, record_ranges, release_part
from searchapp.models import Formula, IndexJob, Occurrence, Post
from tests.app.factories import FORMULAS
from tests.app.indexing.test_documents import BOOK, write
from tests.conftest import database_url


@pytest.mark.parametrize(("total", "ranges"), [
    pytest.param(0, [], id="empty"),
    pytest.param(1999, [(0, 1999)], id="under-two-parts"),
    pytest.param(5000, [(0, 2500), (2500, 5000)], id="two-parts"),
    pytest.param(100_000, [(round(100_000 * i / 32), round(100_000 * (i + 1) / 32)) for i in range(32)],
                 id="at-most-32"),
])
def test_a_file_is_cut_in_equal_ranges_of_enough_records(total, ranges):
    assert parts.PART_RECORDS == 2000 and record_ranges(total) == ranges


@pytest.fixture
def other_runner():
    """A second database session: another worker, holding a part."""
    session = psycopg.connect(database_url(connection.settings_dict), autocommit=True)
    yield session
    session.close()


@pytest.mark.django_db(transaction=True)  # another session's lock, on committed parts
def test_a_job_is_done_only_once_every_part_is(tmp_path, monkeypatch, other_runner):
    monkeypatch.setattr(parts, "PART_RECORDS", 3)  # FORMULAS' 8 records: 2 parts
    path = tmp_path / "formulas.txt"
    path.write_text("\n".join(FORMULAS) + "\n")
    job = start_index_job(path, "latex", "parts", enqueue=False)
    assert plan_job(job) == 2
    first, second = job.parts.order_by("number")
    assert [(first.start, first.stop), (second.start, second.stop)] == [(0, 4), (4, 8)]
    other_runner.execute("SELECT pg_advisory_lock(%s, %s)", [PART_LOCK_CLASS, second.pk])  # its runner works on it

    job = run_job(job)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.state, first.cursor, second.state, second.cursor) == ("done", 4, "pending", 0)
    assert (job.state, job.cursor, job.done, job.finished_at) == ("running", 4, 4, None)
    assert Occurrence.objects.count() == 4

    other_runner.execute("SELECT pg_advisory_unlock_all()")  # its runner died: the part is taken again
    job = run_job(job)
    assert (job.state, job.cursor, job.done) == ("done", 8, 8)
    assert job.formulas_added == sum(job.parts.values_list("formulas_added", flat=True)) == Formula.objects.count()
    assert list(job.parts.values_list("state", "cursor", "done")) == [("done", 4, 4), ("done", 4, 4)]
    assert Occurrence.objects.count() == 8


@pytest.mark.django_db
def test_a_part_is_taken_by_one_runner_at_a_time(tmp_path, monkeypatch):
    monkeypatch.setattr(parts, "PART_RECORDS", 3)
    path = tmp_path / "formulas.txt"
    path.write_text("\n".join(FORMULAS) + "\n")
    job = start_index_job(path, "latex", "parts", enqueue=False)
    plan_job(job)
    taken = claim_part(job)
    other = psycopg.connect(database_url(connection.settings_dict), autocommit=True)
    try:
        assert not other.execute("SELECT pg_try_advisory_lock(%s, %s)", [PART_LOCK_CLASS, taken.pk]).fetchone()[0]
        release_part(taken.pk)
        assert other.execute("SELECT pg_try_advisory_lock(%s, %s)", [PART_LOCK_CLASS, taken.pk]).fetchone()[0]
    finally:
        other.close()


@pytest.mark.django_db
def test_a_locked_part_reads_its_corpus_without_the_corpus_macros(tmp_path):
    """A re-sync locks a part once a document: decoding every macro of a large corpus each time cost it 4/5 of its time."""
    path = tmp_path / "formulas.txt"
    path.write_text("\n".join(FORMULAS) + "\n")
    job = start_index_job(path, "latex", "parts", enqueue=False)
    plan_job(job)
    with transaction.atomic():
        part = lock_part(job.parts.get().pk)
    assert part.job.corpus.name == "parts" and {"macros", "other_macros"} <= part.job.corpus.get_deferred_fields()


@pytest.mark.django_db
def test_an_answer_stored_before_its_question_is_linked_when_the_job_ends(tmp_path, monkeypatch):
    monkeypatch.setattr(parts, "PART_RECORDS", 1)  # a part a post: the answer's part is stored first
    path = tmp_path / "posts.jsonl"
    path.write_text("\n".join(json.dumps(post) for post in [
        {"id": "a1", "parent": "q1", "body": "Yes: $x^2 + 1 > 0$."},
        {"id": "q1", "title": "Is $x^2$ positive?", "body": "For real $x$."},
        {"id": "a2", "parent": "gone", "body": "Its question is not in the corpus."}]) + "\n")
    job = run_job(start_index_job(path, "jsonl", "answers", enqueue=False))
    assert (job.state, job.done, job.parts.count()) == ("done", 3, 3)
    assert dict(Post.objects.values_list("source_id", "parent__source_id")) == {"q1": None, "a1": "q1", "a2": None}


@pytest.mark.django_db
def test_each_document_is_a_part_and_the_biggest_is_taken_first(tmp_path):
    write(tmp_path / "book", BOOK)
    job = run_job(start_index_job(tmp_path / "book", "documents", "papers", enqueue=False))
    taken = list(job.parts.order_by("number").values_list("document", "files", "state"))
    assert taken == [("main.tex", 5, "done"), ("notes/pythagoras.md", 1, "done")]  # the book: 5 files
    sizes = list(job.parts.order_by("number").values_list("bytes", flat=True))
    assert sizes == sorted(sizes, reverse=True)
    assert (job.state, job.files_read, job.files_total) == ("done", 8, 8)  # its two other mains read as skipped
    assert job.done == sum(job.parts.values_list("done", flat=True)) == 4


@pytest.mark.django_db(transaction=True)
def test_a_cancelled_job_cancels_its_parts_and_a_runner_takes_none(tmp_path, monkeypatch):
    monkeypatch.setattr(parts, "PART_RECORDS", 3)
    path = tmp_path / "formulas.txt"
    path.write_text("\n".join(FORMULAS) + "\n")
    job = start_index_job(path, "latex", "parts", enqueue=False)
    plan_job(job)
    assert cancel_jobs(IndexJob.objects.filter(pk=job.pk), by="ada") == [job.pk]
    assert set(job.parts.values_list("state", flat=True)) == {"cancelled"}
    assert claim_part(job) is None
    job = run_job(job)
    assert (job.state, job.cursor) == ("cancelled", 0) and not Post.objects.exists()
