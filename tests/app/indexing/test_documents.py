"""A folder of documents indexed into a corpus and kept in sync with it: each document read once, unchanged ones
skipped, changed ones replaced whole, removed ones removed."""
import threading

import pytest
from django.db import connection

from searchapp.indexing import documents
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job
from searchapp.models import Formula, IndexPart, Occurrence, Post, SourceDocument

MAIN = "\\documentclass[{size}]{{book}}\n\\input{{macros}}\n\\begin{{document}}\n\\input{{main}}\n\\end{{document}}\n"
BOOK = {
    "macros.tex": "\\newcommand{\\norm}[1]{\\lVert #1\\rVert}\n\\newcommand{\\inner}[2]{\\langle #1, #2\\rangle}\n",
    "book-a4.tex": MAIN.format(size="a4paper"),
    "book-letter.tex": MAIN.format(size="letterpaper"),
    "book-ebook.tex": MAIN.format(size="a5paper"),
    "main.tex": "\\chapter{Spaces}\nWe study spaces.\n\\input{norms}\n\\input{inner}\n",
    "norms.tex": "\\section{Norms}\nA norm $\\norm{x}$ obeys\n\\[\\norm{x+y} \\le \\norm{x} + \\norm{y}.\\]\n",
    "inner.tex": "\\section{Inner products}\nAn inner product gives\n\\[\\inner{x}{x} \\ge 0.\\]\n",
    "notes/pythagoras.md": "# Pythagoras\n\nFor a right triangle $$a^2 + b^2 = c^2$$ holds.\n",
}


def write(folder, files: dict) -> None:
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def index(folder, corpus: str = "papers"):
    return run_job(start_index_job(folder, "documents", corpus, enqueue=False))


def posts() -> dict[str, tuple[int, str]]:
    return {source_id: (pk, body) for source_id, pk, body in Post.objects.values_list("source_id", "pk", "body")}


@pytest.fixture
def book(tmp_path):
    folder = tmp_path / "book"
    write(folder, BOOK)
    return folder


@pytest.mark.django_db
def test_a_book_with_three_paper_size_mains_is_read_once_with_the_macros(book):
    job = index(book)
    assert job.state == "done" and job.failed == 0
    assert sorted(posts()) == ["inner.tex#inner-products", "main.tex#spaces", "norms.tex#norms",
                               "notes/pythagoras.md"]
    bodies = [body for _, body in posts().values()]
    assert len(bodies) == len(set(bodies))
    assert sorted(SourceDocument.objects.values_list("path", flat=True)) == ["main.tex", "notes/pythagoras.md"]
    assert sorted(error["message"] for error in job.errors if error.get("note")) == [
        "book-ebook.tex: a variant of book-a4.tex (the same sections): read once, with it",
        "book-letter.tex: a variant of book-a4.tex (the same sections): read once, with it"]
    assert r"\lVert x+y\rVert \le \lVert x\rVert + \lVert y\rVert." in posts()["norms.tex#norms"][1]
    assert (job.files_total, job.files_read) == (8, 8)
    assert job.bytes_read == job.bytes_total == sum(len(text.encode()) for text in BOOK.values())


@pytest.mark.django_db
def test_indexing_the_same_folder_again_reads_nothing_unchanged(book):
    index(book)
    before = posts()
    job = index(book)
    assert (job.state, job.unchanged, job.done, job.removed, job.files_read) == ("done", 2, 0, 0, 8)
    assert posts() == before


@pytest.mark.django_db
def test_editing_one_file_replaces_that_document_only(book):
    index(book)
    before = posts()
    (book / "inner.tex").write_text("\\section{Inner products}\nNow\n\\[\\inner{x}{y} = \\inner{y}{x}.\\]\n")
    job = index(book)
    after = posts()
    assert (job.unchanged, job.done) == (1, 3)  # the notes skipped; the book's three sections stored again
    assert after["notes/pythagoras.md"] == before["notes/pythagoras.md"]
    assert r"\langle x, y\rangle = \langle y, x\rangle" in after["inner.tex#inner-products"][1]
    assert not Formula.objects.filter(latex__contains=r"\langle x, x\rangle").exists()  # held by no post now
    assert Formula.objects.filter(latex__contains=r"\lVert x+y\rVert").count() == 1  # kept, and not twice
    assert Occurrence.objects.filter(post__source_id="norms.tex#norms").count() == 2


@pytest.mark.django_db
def test_removing_a_file_removes_its_posts_and_the_formulas_only_it_held(book):
    index(book)
    (book / "notes/pythagoras.md").unlink()
    job = index(book)
    assert (job.unchanged, job.removed, job.done) == (1, 1, 0)
    assert "notes/pythagoras.md" not in posts()
    assert not Formula.objects.filter(latex="a^2 + b^2 = c^2").exists()


@pytest.mark.django_db
def test_an_unreadable_new_version_keeps_the_last_readable_one(book):
    index(book)
    (book / "notes/pythagoras.md").write_bytes(b"\x00binary now")
    job = index(book)
    [error] = [error for error in job.errors if not error.get("note")]
    assert job.failed == 1 and (error["kind"], error["file"], error["file_line"]) == (
        "unreadable", "notes/pythagoras.md", None)
    assert "notes/pythagoras.md" in posts()


@pytest.mark.django_db
def test_a_document_s_problems_are_kept_with_their_kind_file_and_line(tmp_path):
    folder = tmp_path / "paper"
    write(folder, {"paper.tex": "\\documentclass{article}\n\\def\\loop{\\loop}\n\\begin{document}\n"
                                "\\input{gone}\n$\\loop$ and $x$\n\\end{document}\n"})
    job = index(folder)
    assert job.state == "done" and job.failed == 2
    assert [(error["kind"], error["file"], error["file_line"]) for error in job.errors] == [
        ("include-missing", "paper.tex", None), ("macro-loop", "paper.tex", 5)]
    assert [error["message"] for error in job.errors] == [
        "paper.tex: \\input{gone}: no such file in the upload",
        "paper.tex:5: macro \\loop reads more than 20,000 tokens (it expands forever); left as written"]


@pytest.mark.django_db
def test_the_job_page_lists_a_document_s_problem_with_its_kind(tmp_path, admin_client):
    folder = tmp_path / "notes"
    write(folder, {"a.md": "# Notes\n\n## A\n\n<div>\\[x\\]</div>\n"})
    job = index(folder)
    [error] = admin_client.get(f"/admin/searchapp/indexjob/{job.pk}/progress.json").json()["errors"]
    assert (error["kind"], error["file"], error["file_line"]) == ("unread-delimiters", "a.md", None)
    page = admin_client.get(f"/admin/searchapp/indexjob/{job.pk}/live/").content.decode()
    assert ("<li>section 1: a.md: section &#x27;A&#x27;: text holds an unread formula delimiter pair \\[ … \\]\n"
            '      <span class="problem-kind">unread-delimiters</span></li>') in page


@pytest.mark.django_db
def test_documents_of_two_origins_do_not_remove_each_other(book, tmp_path):
    other = tmp_path / "other"
    write(other, {"euler.md": "# Euler\n\n$$e^{i\\pi} + 1 = 0$$\n"})
    index(book)
    job = index(other)
    assert (job.removed, job.done) == (0, 1)
    assert len(posts()) == 5


@pytest.mark.django_db
def test_the_corpus_reads_queries_with_the_most_common_definition(book, tmp_path):
    index(book)
    write(tmp_path / "more", {"a.tex": "\\documentclass{article}\\newcommand{\\norm}[1]{|#1|}\\begin{document}"
                                       "$\\norm{a}$\\end{document}"})
    job = index(tmp_path / "more")
    corpus = job.corpus
    corpus.refresh_from_db()
    assert sorted(corpus.macros) == ["inner", "norm"]
    assert corpus.macros["norm"]["body"] == "|#1|"  # one document each: the first by path (a.tex, main.tex) wins
    assert [definition["body"] for definition in corpus.other_macros["norm"]] == ["\\lVert #1\\rVert"]


@pytest.mark.django_db(transaction=True)
def test_a_search_during_a_reindex_sees_each_document_whole(book, monkeypatch):
    index(book)
    before = Post.objects.filter(document__path="main.tex").count()
    (book / "norms.tex").write_text("\\section{Norms}\nChanged $\\norm{x} = 0$.\n\\section{More}\nMore $y$.\n")
    stored_one, go_on = threading.Event(), threading.Event()
    store_prepared = documents.store_prepared

    def slow_store(*args):
        outcome = store_prepared(*args)
        stored_one.set()
        go_on.wait(60)
        return outcome

    monkeypatch.setattr(documents, "store_prepared", slow_store)
    monkeypatch.setattr(documents, "prepared_chunks", _one_record_a_chunk(documents.prepared_chunks))

    def reindex():
        index(book)
        connection.close()

    runner = threading.Thread(target=reindex)
    runner.start()
    assert stored_one.wait(120)
    assert Post.objects.filter(document__path="main.tex").count() == before  # the old version, whole
    go_on.set()
    runner.join(120)
    assert Post.objects.filter(document__path="main.tex").count() == before + 1  # the new one, whole


def _one_record_a_chunk(prepared_chunks):
    """Chunks of one record, so that a document of several sections is stored in several chunks."""
    def chunks(corpus, items, encoder, encode_all=False):
        for item in items:
            yield from prepared_chunks(corpus, [item], encoder, encode_all)
    return chunks


class Killed(Exception):
    """The worker dying mid-job."""


@pytest.mark.django_db
def test_a_resumed_job_skips_the_documents_it_stored_and_reads_the_rest(book, monkeypatch):
    replace, calls = documents._replace, []

    def dies_on_the_second(part_id, *args):
        calls.append(IndexPart.objects.get(pk=part_id).document)
        if len(calls) == 2:
            raise Killed
        return replace(part_id, *args)

    monkeypatch.setattr(documents, "_replace", dies_on_the_second)
    job = start_index_job(book, "documents", "papers", enqueue=False)
    with pytest.raises(Killed):
        run_job(job)
    first = posts()
    assert sorted(first) == ["inner.tex#inner-products", "main.tex#spaces", "norms.tex#norms"]
    job = run_job(job)
    assert calls == ["main.tex", "notes/pythagoras.md", "notes/pythagoras.md"]  # the book not read again
    assert (job.state, job.done, job.unchanged, job.files_read) == ("done", 4, 0, 8)
    assert {source_id: posts()[source_id] for source_id in first} == first
