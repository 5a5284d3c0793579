import json
import time

import pytest

from searchapp import indexing
from searchapp.indexing import run_job, start_index_job
from searchapp.indexing import pattern_keys
from searchapp.models import Formula, Occurrence, OpgPosting, Post, SlgPattern, SlgPosting
from searchapp.vectors import decode_matrix

from tests.app.conftest import FORMULAS

pytestmark = pytest.mark.django_db


def test_indexing_stores_one_formula_per_visual_key_with_its_node_patterns(index_file):
    job = index_file()
    assert (job.state, job.total, job.done, job.failed) == ("done", 8, 8, 0)
    assert Formula.objects.count() == 7 == job.formulas_added  # x^2+y^2=z^2 occurs twice
    assert Occurrence.objects.count() == 8
    assert Post.objects.count() == 8
    formula = Formula.objects.get(latex=r"e^{i\pi} + 1 = 0")
    slg = decode_matrix(formula.slg_matrix)
    posted = set(SlgPosting.objects.filter(formula=formula).values_list("pattern__key", flat=True))
    assert posted == set(pattern_keys(slg)) and len(slg) > 3
    assert OpgPosting.objects.filter(formula=formula).count() == len(set(pattern_keys(decode_matrix(formula.opg_matrix))))


def test_identical_node_vectors_are_stored_once_per_corpus(index_file):
    index_file(["x^2 + 1", "x^2 + 2"])  # the superscript 2 has the same 2-hop neighbourhood in both
    all_keys = [key for formula in Formula.objects.all() for key in pattern_keys(decode_matrix(formula.slg_matrix))]
    assert SlgPattern.objects.count() == len(set(all_keys)) < len(all_keys)


def test_indexing_the_same_file_again_adds_nothing(index_file):
    index_file()
    counts = (Formula.objects.count(), Occurrence.objects.count(), SlgPosting.objects.count())
    again = index_file()
    assert again.state == "done" and again.formulas_added == 0
    assert (Formula.objects.count(), Occurrence.objects.count(), SlgPosting.objects.count()) == counts


def test_bad_records_are_reported_and_the_job_completes(index_file):
    lines = [
        json.dumps({"id": "1", "title": "ok", "body": "we have $x+1$ and $\\frac{1}{$"}),
        "{broken json",
        json.dumps({"id": "1", "title": "duplicate id", "body": "$y$"}),
        json.dumps({"id": "2", "body": "huge $" + "x+" * 20000 + "1$"}),
        json.dumps({"title": "no id"}),
    ]
    job = index_file(lines, name="posts.jsonl", format="jsonl")
    assert job.state == "done"
    assert (job.total, job.done, job.failed) == (5, 3, 2)
    assert job.formula_errors >= 1
    messages = " | ".join(error["message"] for error in job.errors)
    assert "invalid JSON" in messages and "missing or empty 'id'" in messages
    assert Formula.objects.filter(latex="x+1").exists()


def test_a_job_killed_mid_way_resumes_from_its_cursor(index_file, tmp_path, monkeypatch):
    path = tmp_path / "many.txt"
    path.write_text("\n".join(FORMULAS) + "\n")
    job = start_index_job(path, "latex", "resume", enqueue=False)
    monkeypatch.setattr(indexing, "CHUNK_SIZE", 3)
    real_chunk, calls = indexing.index_chunk, []

    def dies_on_second_chunk(job_id, items):
        calls.append(len(items))
        if len(calls) == 2:
            raise KeyboardInterrupt("worker killed")
        real_chunk(job_id, items)

    monkeypatch.setattr(indexing, "index_chunk", dies_on_second_chunk)
    with pytest.raises(KeyboardInterrupt):
        run_job(job)
    job.refresh_from_db()
    assert (job.state, job.cursor) == ("running", 3)
    monkeypatch.setattr(indexing, "index_chunk", real_chunk)
    job = run_job(job)
    assert (job.state, job.cursor, job.done) == ("done", 8, 8)
    assert Occurrence.objects.filter(post__corpus__name="resume").count() == 8


@pytest.mark.django_db(transaction=True)
def test_a_worker_process_runs_the_job(celery_worker_process, tmp_path):
    path = tmp_path / "worker.txt"
    path.write_text("\n".join(FORMULAS) + "\n")
    job = start_index_job(path, "latex", "via-worker")
    deadline = time.monotonic() + 120
    while job.state not in ("done", "failed") and time.monotonic() < deadline:
        time.sleep(0.5)
        job.refresh_from_db()
    assert job.state == "done", job.message
    assert job.timings["parse"] > 0 and job.timings["embed"] > 0
    assert Formula.objects.filter(corpus__name="via-worker").count() == 7


@pytest.mark.django_db(transaction=True)  # CREATE INDEX needs the chunks committed, as in a worker
def test_bulk_jobs_rebuild_the_hnsw_indexes_at_the_end(index_file, monkeypatch):
    from django.db import connection

    monkeypatch.setattr(indexing, "BULK_RECORDS", 1)
    assert index_file().state == "done"
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE indexname LIKE '%%embedding_hnsw'")
        assert sorted(row[0] for row in cursor.fetchall()) == ["opgpattern_embedding_hnsw",
                                                                "slgpattern_embedding_hnsw"]
