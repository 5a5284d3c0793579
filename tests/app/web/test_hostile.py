"""Hostile but fair input: what a tester sends the search API and page must come back as a 400 naming it, never a 500."""
import html

import pytest

from ml.formula import parse_latex
from searchapp.search.query import MAX_QUERY_NODES

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("query_string, message", [
    pytest.param("q=x%00y", "q must not contain a NUL character (at 1)", id="nul-in-q"),
    pytest.param("q=x&corpus=a%00b", "corpus must not contain a NUL character (at 1)", id="nul-in-corpus"),
    pytest.param("q=x&corpus=" + "a" * 101, "corpus names have at most 100 characters, got 101", id="corpus-too-long"),
    pytest.param("q=x&k=" + "9" * 5000, "k must be an integer, got '9999", id="k-of-5000-digits"),
    pytest.param("q=x&offset=" + "9" * 4000, "offset must be between 0 and 10000, got 9999", id="offset-of-4000-digits"),
    pytest.param("q=x&k=-1", "k must be between 1 and 1000, got -1", id="negative-k"),
    pytest.param("q=x&notation=tex", "notation must be one of auto, latex, mathml, slt, got 'tex'", id="unknown-notation"),
])
def test_bad_search_parameters_are_400s_naming_them(client, query_string, message):
    response = client.get(f"/api/search?{query_string}")
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["message"][:len(message)]) == ("invalid_parameter", message)
    assert len(response.json()["message"]) < 200  # a 5,000-digit value is quoted cut short
    page = client.get(f"/?{query_string}")
    assert page.status_code == 400 and message[:30] in html.unescape(page.content.decode())


def test_a_corpus_name_that_fits_but_names_nothing_finds_nothing(client):
    response = client.get("/api/search", {"q": "x", "corpus": "a" * 100})
    assert response.status_code == 200 and response.json()["results"] == []


MATRIX_OF_1000_ROWS = r"\begin{pmatrix}" + r"\\".join(["1"] * 1000) + r"\end{pmatrix}"


@pytest.mark.parametrize("text, notation, nodes", [
    pytest.param("x" * (MAX_QUERY_NODES + 1), "latex", MAX_QUERY_NODES + 1, id="one-past-the-limit"),
    pytest.param("x+" * 2499 + "x", "latex", 4999, id="5000-characters"),
    pytest.param(MATRIX_OF_1000_ROWS, "latex", 1001, id="1000-row-matrix"),
    pytest.param("<math>" + "<mi>x</mi>" * 200 + "</math>", "mathml", 200, id="mathml"),
    pytest.param("[V!x" * 200 + "]" * 200, "slt", 200, id="slt-string"),
])
def test_a_query_too_large_to_search_is_refused_after_parsing(client, text, notation, nodes):
    response = client.get("/api/search", {"q": text, "notation": notation})
    assert (response.status_code, response.json()["code"]) == (400, "query_too_large")
    message = f"the query has {nodes} symbols (Symbol Layout Tree nodes); the limit is {MAX_QUERY_NODES}"
    assert response.json()["message"] == message
    page = client.get("/", {"q": text, "notation": notation})
    assert page.status_code == 400 and message in html.unescape(page.content.decode())


@pytest.mark.parametrize("text", [
    pytest.param("(" * 400 + "x" + ")" * 400, id="parentheses-400-deep"),
    pytest.param(r"\{" * 500 + "x" + r"\}" * 500, id="braces-500-deep"),
])
def test_a_query_nested_past_the_recursion_limit_is_refused(client, text):
    response = client.get("/api/search", {"q": text})
    assert (response.status_code, response.json()["code"]) == (400, "latex_too_deep")
    assert client.get("/", {"q": text}).status_code == 400


def test_a_query_at_the_limit_is_searched(client):
    assert client.get("/api/search", {"q": "x" * MAX_QUERY_NODES}).status_code == 200


def test_every_arqmath_topic_query_is_far_within_the_limit(shared_data):
    paths = sorted((shared_data / "arqmath" / "topics").glob("topics.arqmath-202*-task2*.txt"))
    formulas = [line.split("\t", 1)[1].strip() for path in paths for line in path.read_text(encoding="utf-8").splitlines()
                if "\t" in line]
    assert len(formulas) > 400
    assert max(len(parse_latex(latex).slt) for latex in formulas) * 3 <= MAX_QUERY_NODES

