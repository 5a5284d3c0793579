"""Queries read in a corpus's notation (`searchapp.search.notation`): the macros its documents define, expanded
before the query is parsed."""
import pytest

from corpora.documents.latex_macros import Macro, Param
from searchapp.models import Corpus, Formula, Post
from searchapp.search.notation import corpus_macros

pytestmark = pytest.mark.django_db

NORM = Macro("norm", (Param("m"),), r"\left\lVert#1\right\rVert").to_json()
BOOK = r"\left\lVert x+y\right\rVert \le \left\lVert x\right\rVert + \left\lVert y\right\rVert"
SPELLED = r"\text{norm}{x+y} \le \text{norm}{x} + \text{norm}{y}"
"""What the query's macros match when read as unknown symbols."""
LINES = [BOOK, SPELLED, r"|x+y| \le |x| + |y|", r"f(x+y) \le f(x) + f(y)", r"x^2 + y^2 = z^2"]
QUERY = r"\norm{x+y} \le \norm{x} + \norm{y}"


@pytest.fixture
def book(index_file):
    """LINES as the corpus "test", whose documents define `\\norm`."""
    index_file(LINES)
    Corpus.objects.filter(name="test").update(macros={"norm": NORM})


@pytest.mark.parametrize("corpus, first, macros", [
    pytest.param("test", BOOK, ("norm",), id="in-the-corpus-read-with-its-macros"),
    pytest.param(None, SPELLED, (), id="every-corpus-read-as-typed"),
])
def test_a_search_in_a_corpus_reads_the_query_with_its_macros(book, corpus, first, macros):
    results = Formula.objects.search(QUERY, k=5, corpus=corpus)
    assert results.hits[0].formula.latex == first
    assert (results.query.text, results.query.macros) == (QUERY, macros)  # the text stays as typed, for the logs


@pytest.mark.parametrize("text, corpus, queries, found", [
    pytest.param(QUERY, "test", 1, True, id="a-macro-of-the-corpus"),
    pytest.param(r"\frac{1}{2}", "test", 1, False, id="no-macro-of-the-corpus"),
    pytest.param("x^2 + 1", "test", 0, False, id="no-command-no-query"),
    pytest.param(QUERY, None, 0, False, id="every-corpus-no-query"),
])
def test_a_corpus_macros_are_read_in_one_query_when_the_text_writes_a_command(book, django_assert_num_queries, text,
                                                                             corpus, queries, found):
    with django_assert_num_queries(queries):
        assert corpus_macros(text, corpus, Corpus.objects) == ({"norm": NORM} if found else {}, {})


def test_an_expansion_that_cannot_be_parsed_is_searched_as_typed(book):
    Corpus.objects.filter(name="test").update(macros={"norm": NORM, "half": Macro("half", (), r"\frac{1}{").to_json()})
    results = Formula.objects.search(r"\half + \norm{x}", k=1, corpus="test")
    graphs = results.query.graphs
    assert graphs is not None and (results.query.macros, graphs.slt.labels[0]) == ((), "T!half")


AREA = Macro("area", (Param("m"),), r"\int_0^1 #1 \, dx").to_json()


@pytest.mark.parametrize("corpus, macros", [
    pytest.param("threads", ["area"], id="in-the-corpus"),
    pytest.param(None, [], id="every-corpus"),
])
def test_a_question_in_a_corpus_reads_its_formulas_with_its_macros(threads, corpus, macros):
    Corpus.objects.filter(name="threads").update(macros={"area": AREA})
    results = Post.objects.search(r"What is $\area{x^2}$ ?", k=3, mode="formula", corpus=corpus)
    assert (results.question.macros, results.question.formulas[0].text) == (macros, r"\area{x^2}")
    if macros:
        assert results.hits[0].post.source_id == "22"  # the answer holding \int_0^1 x^2 \, dx
