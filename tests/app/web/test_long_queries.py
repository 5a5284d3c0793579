"""Queries as long as the boxes allow (5,000 characters) on the search and question pages: a GET URL for a short
query, a POSTed form (static/js/long_query.js) for a long one, both server-rendered on the real database."""
import re
from urllib.parse import parse_qs

import pytest
from django.test import Client

from tests.app.factories import EIGEN_QUESTION, index_threads, result_ids

pytestmark = pytest.mark.django_db

LONG_QUERY = r"a^2+b^2=c^2 \text{" + "𝑥" * 4981 + "}"
"""5,000 characters, four UTF-8 bytes each: 59,809 bytes URL-encoded, 20 KB in a multipart body."""


@pytest.fixture
def browser():
    """A client that checks CSRF tokens as the site does for browsers, holding the cookie a page gave it."""
    client = Client(enforce_csrf_checks=True)
    client.get("/")
    return client


def posted(client, path: str, form: dict):
    """The form POSTed as long_query.js sends it: multipart (the test client's default), with the page's token."""
    return client.post(path, {**form, "csrfmiddlewaretoken": client.cookies["csrftoken"].value})


@pytest.mark.parametrize("path, form", [pytest.param("/", {"q": "x"}, id="search"),
                                        pytest.param("/questions", {"q": "why $x$?"}, id="question")])
def test_the_pages_forms_are_get_forms_without_a_token_yet_give_the_script_one(client, path, form):
    """A token in a GET form would go into every shared URL; the script reads it from the cookie when it POSTs."""
    response = client.get(path)
    page = response.content.decode()
    form_tag = re.search(r'<form class="search-form[^>]*>', page).group(0)
    assert 'method="get"' in form_tag and "data-long-query" in form_tag
    assert "csrfmiddlewaretoken" not in page and "csrftoken" in response.cookies
    assert 'src="/static/js/long_query.js"' in page


def test_a_posted_search_shows_what_its_get_shows(index_file, browser):
    index_file()
    form = {"q": "a^2+b^2", "fusion": "f1", "notation": "auto", "context": "", "corpus": ""}
    got = browser.get("/", form)
    response = posted(browser, "/", form)
    assert response.status_code == 200
    assert result_ids(response.content.decode()) == result_ids(got.content.decode()) != []


def test_a_5000_character_query_and_its_words_fit_a_posted_form(index_file, browser):
    index_file()
    response = posted(browser, "/", {"q": LONG_QUERY, "context": "𝑥" * 5000})
    assert response.status_code == 200
    assert result_ids(response.content.decode())


def test_a_post_without_the_token_is_refused(browser):
    response = browser.post("/", {"q": "x"})
    assert response.status_code == 403


def test_the_pager_of_a_posted_search_repeats_it_without_the_token(index_file, browser):
    index_file([f"x^{{{n}}} + {n}" for n in range(1, 26)])
    first = posted(browser, "/", {"q": "x^{3} + 3", "fusion": "f1"}).content.decode()
    link = re.search(r'<a rel="next" href="\?([^"]+)"', first).group(1).replace("&amp;", "&")
    assert parse_qs(link) == {"q": ["x^{3} + 3"], "fusion": ["f1"], "page": ["2"]}
    second = posted(browser, "/", {"q": "x^{3} + 3", "fusion": "f1", "page": "2"}).content.decode()
    assert 'start="21"' in second and set(result_ids(first)).isdisjoint(result_ids(second))


def test_a_long_posted_question_is_answered(browser, tmp_path):
    index_threads(tmp_path / "pages")
    question = ((EIGEN_QUESTION + " ") * 80)[:4600]
    response = posted(browser, "/questions", {"q": question, "mode": "ssemb"})
    page = response.content.decode()
    assert response.status_code == 200 and "Eigenvalues of" in page
    assert not [href for href in re.findall(r'href="([^"]*)"', page) if "csrfmiddlewaretoken" in href]  # in no link
