import json
import threading
import time
from concurrent.futures import Future

import numpy as np
import pytest

from corpora.corpus_files import read_records
from corpora.records import MAX_RECORD_BYTES
from mathparse import parse_latex
from ml.text import text_encoder
from ml.text.posts import body_span, post_text
from searchapp.embedding import embed_graphs, get_codebook, get_fusion
from searchapp.indexing import pipeline
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.codebook import CodebookMismatch, ensure_codebook_loaded
from searchapp.indexing.jobs import plan_job, run_job
from searchapp.models import CodebookState, Formula, Occurrence, Post, PostingList
from searchapp.vectors import ID_DTYPE, decode_matrix
from tests.app.factories import FORMULAS

pytestmark = pytest.mark.django_db


def posted_centroids(formula: Formula, representation: str) -> set[int]:
    return {centroid for centroid, blob in PostingList.objects.filter(representation=representation)
            .values_list("centroid", "formula_ids") if formula.pk in np.frombuffer(blob, dtype=ID_DTYPE)}


def test_indexing_stores_one_formula_per_visual_key_posted_under_its_nodes_centroids(index_file):
    job = index_file()
    assert (job.state, job.total, job.done, job.failed) == ("done", 8, 8, 0)
    assert Formula.objects.count() == 7 == job.formulas_added  # x^2+y^2=z^2 occurs twice
    assert Occurrence.objects.count() == 8
    assert Post.objects.count() == 8
    formula = Formula.objects.get(latex=r"e^{i\pi} + 1 = 0")
    vectors = embed_graphs([parse_latex(formula.latex)])[0]  # the exact vectors indexing assigned, not the stored 4-bit ones
    for representation, blob in (("slg", formula.slg_matrix), ("opg", formula.opg_matrix)):
        codes = get_codebook().assign(representation, vectors[representation])
        assert posted_centroids(formula, representation) == set(codes.tolist()) and len(codes) > 3
        assert (decode_matrix(blob) * vectors[representation]).sum(axis=1).min() > 0.97  # stored: each node's direction


def test_a_finished_job_leaves_one_posting_list_per_centroid(index_file, monkeypatch):
    monkeypatch.setattr(pipeline, "FIRST_CHUNK", 2)
    monkeypatch.setattr(pipeline, "CHUNK_SECONDS", 0)  # then a record a chunk: each chunk appends its own rows
    index_file()
    keys = list(PostingList.objects.values_list("representation", "centroid"))
    assert len(keys) == len(set(keys)) > 10
    ids = np.concatenate([np.frombuffer(b, dtype=ID_DTYPE) for b in PostingList.objects.values_list(
        "formula_ids", flat=True)])
    assert set(ids.tolist()) == set(Formula.objects.values_list("pk", flat=True))


def test_indexing_the_same_file_again_adds_nothing(index_file):
    index_file()
    counts = (Formula.objects.count(), Occurrence.objects.count(), list(PostingList.objects.values_list(
        "representation", "centroid", "formula_ids").order_by("representation", "centroid")))
    again = index_file()
    assert again.state == "done" and again.formulas_added == 0
    assert (Formula.objects.count(), Occurrence.objects.count(), list(PostingList.objects.values_list(
        "representation", "centroid", "formula_ids").order_by("representation", "centroid"))) == counts


def test_an_index_built_with_another_codebook_is_refused_with_a_clear_error(index_file):
    index_file()
    CodebookState.objects.update(fingerprint="0123456789abcdef")
    with pytest.raises(CodebookMismatch, match="built with codebook 0123456789abcdef.*index every corpus again"):
        ensure_codebook_loaded()
    job = index_file(["q^2"], name="other.txt")
    assert job.state == "failed" and "index every corpus again" in job.message


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
    assert (job.total, job.done, job.failed) == (5, 2, 3)
    assert job.formula_errors >= 1
    messages = " | ".join(error["message"] for error in job.errors)
    assert "invalid JSON" in messages and "missing or empty 'id'" in messages and "post id '1'" in messages
    assert Formula.objects.filter(latex="x+1").exists()


@pytest.mark.parametrize("line, message", [
    pytest.param(json.dumps({"id": "x" * 201, "body": "$a$"}), "id is longer than 200 characters", id="long-id"),
    pytest.param(json.dumps({"id": "1", "body": "nul \u0000 in $a$"}), "NUL character", id="nul-in-json"),
])
def test_records_postgres_cannot_store_are_record_errors(index_file, line, message):
    job = index_file([line, json.dumps({"id": "2", "body": "$b$"})], name="posts.jsonl", format="jsonl")
    assert (job.state, job.done, job.failed, job.message) == ("done", 1, 1, "")
    assert message in job.errors[0]["message"]


@pytest.mark.parametrize("row, message", [
    pytest.param("99999999999\t5\t1\tanswer\t1\tx+1", "formula id 99999999999 is larger than 2147483647",
                 id="formula-id-out-of-range"),
    pytest.param("1\t" + "9" * 250 + "\t1\tanswer\t1\tx+1", "id is longer than 200 characters", id="long-post-id"),
])
def test_arqmath_rows_postgres_cannot_store_are_record_errors(index_file, row, message):
    header = "id\tpost_id\tthread_id\ttype\tvisual_id\tformula"
    job = index_file([header, row, "2\t6\t1\tanswer\t1\tx+3"], name="formulas.tsv", format="arqmath")
    assert (job.state, job.done, job.failed, job.message) == ("done", 1, 1, "")
    assert job.errors == [{"line": 2, "message": message}]


def test_a_jsonl_line_over_the_record_limit_is_a_record_error_and_the_next_lines_are_indexed(index_file):
    huge = json.dumps({"id": "1", "body": "$x+1$ " * 350_000})  # 2.1 MB
    job = index_file([huge, json.dumps({"id": "2", "body": "$b$"})], name="posts.jsonl", format="jsonl")
    assert (job.state, job.total, job.done, job.failed) == ("done", 2, 1, 1)
    assert job.errors == [{"line": 1, "message": f"longer than {MAX_RECORD_BYTES:,} bytes; a line is refused above that"}]
    assert list(Post.objects.values_list("source_id", flat=True)) == ["2"]


def test_a_nul_character_in_a_latex_line_is_a_record_error(index_file):
    job = index_file(["a\x00b", "c+d"])
    assert (job.state, job.done, job.failed) == ("done", 1, 1)
    assert "NUL character at column 2" in job.errors[0]["message"]


def test_a_file_whose_every_record_fails_ends_failed_and_says_why(index_file):
    job = index_file(["{not json", "[1, 2]"], name="bad.jsonl", format="jsonl")
    assert (job.state, job.done, job.failed) == ("failed", 0, 2)
    assert job.message.startswith("none of the 2 records could be indexed; the first error: line 1: invalid JSON")


@pytest.mark.parametrize("records, seconds, size", [
    pytest.param(16, 0.1, 32, id="fast-grows-at-most-twice"),
    pytest.param(16, 3.2, 4, id="slow-shrinks-to-the-target"),
    pytest.param(100, 1.0, 80, id="near-the-target"),
    pytest.param(3, 60.0, 1, id="never-below-one"),
    pytest.param(4000, 0.5, pipeline.MAX_CHUNK, id="bounded"),
])
def test_the_next_chunk_is_sized_to_take_the_target_time(records, seconds, size):
    assert pipeline.CHUNK_SECONDS == 0.8 and pipeline.next_chunk_size(records, seconds) == size


def test_a_job_commits_its_counters_every_chunk_sized_by_time(tmp_path, monkeypatch):
    """150 records at 10 ms each and a 0.1 s target: after the first chunk, at most 10 records between commits."""
    real_prepare, commits = pipeline.prepare_chunk, []

    def slow_prepare(corpus, items, words):
        time.sleep(0.01 * len(items))
        return real_prepare(corpus, items, words)

    monkeypatch.setattr(pipeline, "prepare_chunk", slow_prepare)
    monkeypatch.setattr(pipeline, "CHUNK_SECONDS", 0.1)
    path = tmp_path / "many.txt"
    path.write_text("".join(f"x^{{{i}}} + y\n" for i in range(150)))
    job = run_job(start_index_job(path, "latex", "chunks", enqueue=False), lambda job: commits.append(
        (job.cursor, job.total)))
    assert (job.state, job.done, job.formulas_added) == ("done", 150, 150)
    assert commits[0] == (0, 150)  # counted first
    sizes = [after - before for (before, _), (after, _) in zip(commits, commits[1:])]
    assert sizes[0] == pipeline.FIRST_CHUNK and all(1 <= size <= 10 for size in sizes[1:]) and sum(sizes) == 150


@pytest.mark.django_db(transaction=True)  # committed chunks, as in a worker
def test_a_job_killed_mid_way_resumes_from_its_cursor(tmp_path, monkeypatch):
    path = tmp_path / "many.txt"
    path.write_text("\n".join(FORMULAS) + "\n")
    job = start_index_job(path, "latex", "resume", enqueue=False)
    monkeypatch.setattr(pipeline, "FIRST_CHUNK", 3)
    real_chunk, calls = pipeline.store_chunk, []

    def dies_on_second_chunk(part_id, prepared):
        calls.append(prepared.consumed)
        if len(calls) == 2:
            raise KeyboardInterrupt("worker killed")
        return real_chunk(part_id, prepared)

    monkeypatch.setattr(pipeline, "store_chunk", dies_on_second_chunk)
    with pytest.raises(KeyboardInterrupt):
        run_job(job)
    job.refresh_from_db()
    assert (job.state, job.cursor) == ("running", 3)
    monkeypatch.setattr(pipeline, "store_chunk", real_chunk)
    job = run_job(job)
    assert (job.state, job.cursor, job.done) == ("done", 8, 8)
    assert Occurrence.objects.filter(post__corpus=job.corpus).count() == 8
    assert PostingList.objects.filter(corpus=job.corpus).count() > 10


@pytest.mark.django_db(transaction=True)
def test_a_worker_process_runs_the_job(celery_worker_process, tmp_path):
    path = tmp_path / "worker.txt"
    path.write_text("\n".join(FORMULAS) + "\n")
    job = start_index_job(path, "latex", "via-worker")
    while job.state not in ("done", "failed"):  # a job that never ends fails the test's timeout (pytest.ini)
        time.sleep(0.5)
        job.refresh_from_db()
    assert job.state == "done", job.message
    assert job.timings["parse"] > 0 and job.timings["embed"] > 0 and job.timings["merge"] > 0
    assert Formula.objects.filter(corpus__name="via-worker").count() == 7


def test_formulas_stored_before_the_codebook_are_posted_when_it_is_loaded(index_file):
    """Only their stored (4-bit) vectors are left to assign: each formula is posted where those are nearest."""
    index_file()
    PostingList.objects.all().delete()
    CodebookState.objects.all().delete()
    ensure_codebook_loaded()
    assert Formula.objects.count() == 7
    for formula in Formula.objects.all():
        for representation, blob in (("slg", formula.slg_matrix), ("opg", formula.opg_matrix)):
            codes = get_codebook().assign(representation, decode_matrix(blob))
            assert posted_centroids(formula, representation) == set(codes.tolist())


def test_the_next_chunks_posts_are_encoded_on_another_thread_while_this_chunk_is_stored(index_file, monkeypatch):
    events = []
    real_encoded, real_store = pipeline._encoded, pipeline.store_chunk

    def encoded(texts, spans, ids):
        events.append(("encode", tuple(ids), threading.current_thread() is threading.main_thread()))
        return real_encoded(texts, spans, ids)

    def store(job_id, prepared):
        events.append(("store", tuple(sorted(prepared.texts)), threading.current_thread() is threading.main_thread()))
        return real_store(job_id, prepared)

    monkeypatch.setattr(pipeline, "_encoded", encoded)
    monkeypatch.setattr(pipeline, "store_chunk", store)
    monkeypatch.setattr(pipeline, "FIRST_CHUNK", 1)
    monkeypatch.setattr(pipeline, "CHUNK_SECONDS", 1e-6)  # a post a chunk
    job = index_file([json.dumps({"id": str(i), "body": f"Post {i} holds $x^{i}$."}) for i in range(3)],
                     name="posts.jsonl", format="jsonl")
    assert (job.state, job.done) == ("done", 3) and job.timings["text"] > 0
    assert [event for event in events if event[0] == "encode"] == [("encode", (str(i),), False) for i in range(3)]
    stores = [event for event in events if event[0] == "store"]
    assert stores == [("store", (str(i),), True) for i in range(3)]
    # post 1 was on its way to the encoder before post 0 was stored
    assert events.index(("encode", ("1",), False)) < events.index(stores[0])
    assert Post.objects.filter(embedding__isnull=False).count() == 3


def test_a_chunks_posts_are_shared_between_the_encoder_threads(index_file, monkeypatch):
    shares, real_encoded = [], pipeline._encoded

    def encoded(texts, spans, ids):
        shares.append((tuple(ids), threading.current_thread().name.startswith("index-text")))
        return real_encoded(texts, spans, ids)

    monkeypatch.setattr(pipeline, "_encoded", encoded)
    monkeypatch.setattr(pipeline, "FIRST_CHUNK", 4)
    job = index_file([json.dumps({"id": str(i), "body": f"Post {i} holds $x^{i}$."}) for i in range(4)],
                     name="posts.jsonl", format="jsonl")
    assert (job.state, job.done) == ("done", 4)
    assert sorted(shares) == [(("0", "2"), True), (("1", "3"), True)]
    assert Post.objects.filter(embedding__isnull=False).count() == 4


def test_a_post_in_two_chunks_in_a_row_is_encoded_once(index_file, monkeypatch):
    encoded, real_encoded = [], pipeline._encoded
    monkeypatch.setattr(pipeline, "_encoded", lambda texts, spans, ids: encoded.extend(ids) or real_encoded(texts, spans, ids))
    monkeypatch.setattr(pipeline, "FIRST_CHUNK", 1)
    monkeypatch.setattr(pipeline, "CHUNK_SECONDS", 1e-6)
    post = json.dumps({"id": "q", "title": "Roots", "body": "Solve $x^2 = 2$."})
    job = index_file([post, post, json.dumps({"id": "a", "parent": "q", "body": "$x = \\sqrt{2}$"})],
                     name="posts.jsonl", format="jsonl")
    assert (job.state, job.done) == ("done", 3)
    assert sorted(encoded) == ["a", "q"]
    question = Post.objects.get(source_id="q")
    assert question.embedding is not None and Post.objects.get(source_id="a").parent == question


def test_thread_pages_become_questions_and_answers_with_text_vectors_and_formula_contexts(tmp_path):
    from tests.ml.factories import formula_span, thread_page

    folder = tmp_path / "pages"
    folder.mkdir()
    unreadable = "\\frac{1"
    (folder / "11_12.html").write_text(thread_page(f"<p>Is {formula_span(1, 'a^2+b^2')} a square?</p>",
                                                   f"<p>Yes, {formula_span(2, 'x^{2}')} for integers.</p>"))
    (folder / "11_13.html").write_text(thread_page(f"<p>Is {formula_span(1, 'a^2+b^2')} a square?</p>",
                                                   f"<p>No: {formula_span(4, unreadable)} is unreadable</p>")
                                       .replace('answer_id="12"', 'answer_id="13"'))
    job = run_job(start_index_job(folder, "mse_html", "threads", enqueue=False))
    assert (job.state, job.total, job.done, job.failed, job.formula_errors) == ("done", 4, 4, 0, 1)
    assert "formula 4: unbalanced_braces" in job.errors[0]["message"]  # the post is indexed all the same
    question = Post.objects.get(source_id="11")
    assert question.parent is None and sorted(question.answers.values_list("source_id", flat=True)) == ["12", "13"]
    assert all(post.embedding is not None for post in Post.objects.all()) and Post.objects.count() == 3
    occurrences = Occurrence.objects.filter(post=question).order_by("position")
    assert [o.position for o in occurrences] == [1, 9]
    assert all(o.context is not None and len(o.context) == 384 for o in occurrences)
    assert "text" in job.timings
    # MaRF's vector, written with the post: its words fused with its formulas' stored SLG vectors
    title_body = (question.title, question.body)
    tokens = text_encoder().encode([post_text(*title_body)],
                                   [[body_span(question.title, o.start, o.end) for o in occurrences]])[0].tokens
    expected = get_fusion().post_vector(tokens.astype(np.float32),
                           [decode_matrix(o.formula.slg_matrix) for o in occurrences])
    assert np.allclose(np.asarray(question.fused), expected, atol=2e-3)
    assert all(post.fused is not None for post in Post.objects.all())


def test_long_empty_foreign_and_broken_pages_are_indexed_not_failed(tmp_path):
    from tests.ml.factories import formula_span, thread_page

    folder = tmp_path / "pages"
    folder.mkdir()
    pages = {
        "1_2.html": thread_page("<p>" + "word " * 40_000 + formula_span(5, "x^{2}") + "</p>", "<p>ok</p>"),
        "3_4.html": thread_page("", "<p>Die Eigenwerte einer symmetrischen Matrix sind reell.</p>"),
        "5_6.html": thread_page("<p>unclosed <b>bold <i>and <div>nested", "<p>answer</p>"),
    }
    for name, page in pages.items():
        question, answer = name.removesuffix(".html").split("_")
        (folder / name).write_text(page.replace('question_id="11"', f'question_id="{question}"')
                                   .replace('answer_id="12"', f'answer_id="{answer}"'))
    job = run_job(start_index_job(folder, "mse_html", "mixed", enqueue=False))
    assert (job.state, job.done, job.failed) == ("done", 6, 0)
    long_post = Post.objects.get(source_id="1")
    assert len(long_post.body) > 200_000 and long_post.embedding is not None  # the encoder reads its first 256 tokens
    formula = long_post.occurrences.get(position=5)
    assert formula.context is not None and np.allclose(formula.context, long_post.embedding, atol=1e-2)
    assert Post.objects.get(source_id="4").embedding is not None
    assert Post.objects.get(source_id="3").body.startswith("Comment: Try")  # no text of its own, only a comment


def test_a_chunk_prepared_before_the_codebook_was_refitted_is_not_stored(index_file, tmp_path):
    index_file()
    path = tmp_path / "more.txt"
    path.write_text("q^2 + 1\n")
    job = start_index_job(path, "latex", "test", enqueue=False)
    plan_job(job)
    no_words: Future = Future()
    no_words.set_result(({}, 0.0))  # formulas alone: no post to encode
    prepared = pipeline.prepare_chunk(job.corpus, list(read_records(path, "latex")), no_words)
    CodebookState.objects.update(fingerprint="0123456789abcdef")  # another process refitted it meanwhile
    with pytest.raises(CodebookMismatch, match="changed to 0123456789abcdef while this job ran.*holds no codebook"):
        pipeline.store_chunk(job.parts.get().pk, prepared)
    assert not Formula.objects.filter(latex="q^2 + 1").exists()
    job.refresh_from_db()
    assert job.cursor == 0
