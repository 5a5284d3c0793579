"""A query whose macros the corpus's documents define in more than one way is searched in each reading that fits
it (`searchapp.search.readings`): each document's formula is found as that document writes it."""
import pytest

from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job
from searchapp.models import Corpus, Formula
from searchapp.search.readings import search_readings

pytestmark = pytest.mark.django_db

PAPER = "\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\n\\section{{{title}}}\n{body}\n\\end{{document}}\n"
DOCUMENTS = {
    "norms.tex": PAPER.format(preamble="\\newcommand{\\pair}[2]{\\lVert #1 - #2\\rVert}", title="Norms",
                              body="The distance\n\\[\\pair{x}{y} \\le \\pair{x}{z} + \\pair{z}{y}\\]\nholds."),
    "metric.tex": PAPER.format(preamble="\\newcommand{\\pair}[2]{\\lVert #1 - #2\\rVert}", title="Metrics",
                               body="Again\n\\[\\pair{a}{b} = \\pair{b}{a}\\]\nholds."),
    "inner.tex": PAPER.format(preamble="\\newcommand{\\pair}[2]{\\langle #1, #2\\rangle}", title="Inner products",
                              body="Symmetry:\n\\[\\pair{x}{y} \\le \\pair{x}{z} + \\pair{z}{y}\\]\nholds."),
    "arrows.tex": PAPER.format(preamble="\\def\\pair#1/{A\\csname #1\\endcsname Z}", title="Arrows",
                               body="\\[\\pair xrightarrow/\\]"),
}
QUERY = r"\pair{x}{y} \le \pair{x}{z} + \pair{z}{y}"
INNER = r"\langle x, y\rangle \le \langle x, z\rangle + \langle z, y\rangle"
NORM = r"\lVert x - y\rVert \le \lVert x - z\rVert + \lVert z - y\rVert"


@pytest.fixture
def papers(tmp_path):
    folder = tmp_path / "papers"
    folder.mkdir()
    for name, text in DOCUMENTS.items():
        (folder / name).write_text(text)
    job = run_job(start_index_job(folder, "documents", "papers", enqueue=False))
    assert job.state == "done" and job.failed == 0
    return Corpus.objects.get(name="papers")


def test_a_corpus_keeps_the_other_definitions_of_a_macro_most_common_first(papers):
    assert papers.macros["pair"]["body"] == r"\lVert #1 - #2\rVert"  # two documents of four
    assert [definition["body"] for definition in papers.other_macros["pair"]] == [
        r"A\csname #1\endcsname Z", r"\langle #1, #2\rangle"]  # one each: by their documents' paths


@pytest.mark.parametrize("query, readings, first", [
    pytest.param(QUERY, 2, NORM, id="each-definition-that-fits-most-common-first"),  # not the one delimited by /
    pytest.param(r"\pair xrightarrow/", 3, r"A\xrightarrow Z", id="the-definition-it-is-written-for-first"),
])
def test_a_query_is_searched_in_each_of_its_readings(papers, query, readings, first):
    results = Formula.objects.search(query, k=5, corpus="papers")
    assert 1 + len(results.query.readings) == readings
    assert results.hits[0].formula.latex == first
    assert results.query.text == query and results.query.macros == ("pair",)


def test_the_minority_reading_finds_its_document_formula(papers):
    """The inner-product paper's formula, copied with its macro, is found though most documents read `\\pair` as a
    norm."""
    found = [hit.formula.latex for hit in Formula.objects.search(QUERY, k=2, corpus="papers").hits]
    assert sorted(found) == sorted([NORM, INNER])


def test_a_page_of_readings_is_ranked_by_each_formula_best_score(papers):
    query = Formula.objects.search(QUERY, k=1, corpus="papers").query
    whole = search_readings(Formula.objects, query, k=4, offset=0, corpus="papers")
    second_page = search_readings(Formula.objects, query, k=2, offset=2, corpus="papers")
    assert [hit.rank for hit in whole.hits] == [1, 2, 3, 4]
    assert [hit.score for hit in whole.hits] == sorted((hit.score for hit in whole.hits), reverse=True)
    assert [hit.formula_id for hit in second_page.hits] == [hit.formula_id for hit in whole.hits[2:]]
    assert [hit.rank for hit in second_page.hits] == [3, 4]
