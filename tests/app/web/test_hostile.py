"""Hostile but fair input: what a tester sends the search API and page must come back as a 400 naming it, never a 500."""
import html

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def indexed(index_file):
    return index_file()


@pytest.mark.parametrize("query_string, message", [
    pytest.param("q=x%00y", "q must not contain a NUL character (at 1)", id="nul-in-q"),
    pytest.param("q=x&corpus=a%00b", "corpus must not contain a NUL character (at 1)", id="nul-in-corpus"),
    pytest.param("q=x&corpus=" + "a" * 101, "corpus names have at most 100 characters, got 101", id="corpus-too-long"),
    pytest.param("q=x&k=" + "9" * 5000, "k must be an integer, got '9999", id="k-of-5000-digits"),
    pytest.param("q=x&offset=" + "9" * 4000, "offset must be between 0 and 10000, got 9999", id="offset-of-4000-digits"),
    pytest.param("q=x&k=-1", "k must be between 1 and 1000, got -1", id="negative-k"),
    pytest.param("q=x&notation=tex", "notation must be one of auto, latex, mathml, slt, got 'tex'", id="unknown-notation"),
])
def test_bad_search_parameters_are_400s_naming_them(indexed, client, query_string, message):
    response = client.get(f"/api/search?{query_string}")
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["message"][:len(message)]) == ("invalid_parameter", message)
    assert len(response.json()["message"]) < 200  # a 5,000-digit value is quoted cut short
    page = client.get(f"/?{query_string}")
    assert page.status_code == 400 and message[:30] in html.unescape(page.content.decode())


def test_a_corpus_name_that_fits_but_names_nothing_finds_nothing(indexed, client):
    response = client.get("/api/search", {"q": "x", "corpus": "a" * 100})
    assert response.status_code == 200 and response.json()["results"] == []
