"""The search page's presenter (`searchapp.web.search_page`): where the good matches of a first page end, the
results a served search gets, and how the page and the API say a query was read (Unicode math as LaTeX, a long formula
by its parts)."""
import html
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.http import QueryDict

from mathparse.unicode_math import from_unicode
from searchapp.feedback.people import Person
from searchapp.live.serving import served_search
from searchapp.models import Formula
from searchapp.search.results import SearchHit
from searchapp.web import search_page
from searchapp.web.presenters import ResultItem
from searchapp.web.search_page import cut_of
from tests.app.factories import FORMULAS, result_ids


def _items(scores, bindings=None):
    bindings = bindings or [None] * len(scores)
    return [ResultItem(SearchHit(None, score, {}, rank, bindings=bound), [], 0)
            for rank, (score, bound) in enumerate(zip(scores, bindings), start=1)]


@pytest.mark.parametrize("scores, cut", [
    ([1.014, 0.59, 0.566, 0.541, 0.534, 0.528, 0.519], 1),  # e^{i\pi}+1=0: its exact match stands apart
    ([0.926, 0.885, 0.752, 0.729, 0.713, 0.688, 0.685], 2),  # \sum_{k=1}^n k^2: two near matches
    ([0.70, 0.69, 0.68, 0.67, 0.66, 0.65], None),  # an even slope: no end to show
    ([0.70, 0.64, 0.58, 0.52, 0.46], None),  # evenly steep: no drop stands out
    ([0.70, 0.68, 0.67], None),  # a drop, but too small to mean anything
    ([0.9, 0.3], None),  # one drop alone has nothing to stand out from
])
def test_a_marked_drop_in_score_ends_the_good_matches(scores, cut):
    assert cut_of(_items(scores), pattern=False) == cut


def test_for_a_pattern_the_good_matches_are_those_holding_it():
    held = [[("x", "n^2")], [("x", "k")], None, None]
    assert cut_of(_items([0.8, 0.7, 0.95, 0.6], held), pattern=True) == 2
    assert cut_of(_items([0.8, 0.7], [[("x", "n")], [("x", "k")]]), pattern=True) is None  # all hold it
    assert cut_of(_items([0.8, 0.7], [None, None]), pattern=True) is None  # none does


def test_results_shown_to_learn_do_not_mark_where_the_good_matches_end():
    items = _items([0.9, 0.89, 0.88, 0.87, 0.3, 0.29, 0.86])
    for item in items[4:6]:
        item.hit.explored = True  # ranks 5 and 6 stand above their scores
    assert cut_of(items, pattern=False) is None  # the even slope above them has no end
    assert cut_of(_items([0.9, 0.89, 0.88, 0.87, 0.3, 0.29, 0.86]), pattern=False) == 4


@pytest.mark.django_db
def test_a_served_search_is_presented_with_its_cut_its_pager_and_how_its_query_was_read(indexed):
    form = QueryDict("q=e^{i\\pi}%2B1%3D0&fusion=f1")
    served = served_search(form["q"], Person(None, "s1"), fusion="f1", **search_page.page_window(1))
    shown = search_page.formula_results(served, 1, form)
    assert shown["impression"] == served.impression and shown["notation_name"] == "LaTeX"
    assert [item.hit.formula.latex for item in shown["strong"]] == [r"e^{i\pi} + 1 = 0"]  # it stands apart
    assert shown["cut"]["first"] == 2 and len(shown["strong"]) + len(shown["weaker"]) == len(served.results.hits)
    assert shown["pager"]["pages"] == 1 and shown["query_tree"].startswith("<svg")
    later = search_page.formula_results(served, 2, form)
    assert later["cut"] is None and later["weaker"] == []  # past the first page no cut is drawn


def test_a_page_of_results_is_a_window_of_page_size():
    assert search_page.page_window(1) == {"k": search_page.PAGE_SIZE, "offset": 0}
    assert search_page.page_window(3) == {"k": search_page.PAGE_SIZE, "offset": 2 * search_page.PAGE_SIZE}


UNICODE_QUERIES = [  # (as pasted, the corpus's formula it stands for)
    pytest.param("x⁻¹ + x²", "x^{-1} + x^2", id="superscripts"),
    pytest.param("a₁ + a₂", "a_1 + a_2", id="subscripts"),
    pytest.param("α + β = γ", r"\alpha + \beta = \gamma", id="greek"),
    pytest.param("∑_{k=1}^n k² ≤ ∞", r"\sum_{k=1}^{n} k^2 \le \infty", id="symbols"),
    pytest.param("½ + ¼", r"\frac{1}{2} + \frac{1}{4}", id="fractions"),
    pytest.param("𝐱 ∈ 𝔽ₚ", r"\mathbf{x} \in \mathbb{F}_p", id="alphanumerics"),
    pytest.param(r"\sqrt{2} + √(n² + 1)", r"\sqrt{2} + \sqrt{n^2 + 1}", id="mixed"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("query, formula", UNICODE_QUERIES)
def test_unicode_math_in_the_box_and_the_api_is_read_as_latex(index_file, client, query, formula):
    index_file([*FORMULAS, *(param.values[1] for param in UNICODE_QUERIES)])
    read = from_unicode(query).latex
    answer = client.get("/api/search", {"q": query}).json()
    assert (answer["notation"], answer["latex_from_unicode"], answer["results"][0]["latex"]) == ("latex", read, formula)
    page = client.get("/", {"q": query}).content.decode()
    said = re.search(r'<p class="read-as" id="unicode-hint">Read as LaTeX from Unicode:\s*<span class="math" '
                     r'data-latex="([^"]*)">', page)
    assert said and html.unescape(said.group(1)) == read
    assert Formula.objects.get(pk=result_ids(page)[0]).latex == formula
    assert client.get("/api/search", {"q": formula}).json()["latex_from_unicode"] is None


@pytest.mark.django_db
@pytest.mark.parametrize("query, target", [
    pytest.param("x² + y² = z²", "a^2 + b^2 = c^2", id="pythagoras"),
    pytest.param("∫_0^∞ e^{-x²} dx", r"\int_{-\infty}^{\infty} e^{-x^2}\,dx = \sqrt{\pi}", id="gaussian-integral"),
    pytest.param(r"\frac{1}{n²}", r"\sum_{n=1}^{\infty} \frac{1}{n^2} = \frac{\pi^2}{6}", id="mixed-basel"),
])
def test_unicode_queries_find_their_formula_in_the_starter_corpus(client, query, target):
    call_command("load_starter", "--sync", stdout=StringIO())
    first = [hit["latex"] for hit in client.get("/api/search", {"q": query, "k": 3}).json()["results"]]
    assert target in first
    page = client.get("/", {"q": query}).content.decode()
    assert target in [Formula.objects.get(pk=pk).latex for pk in result_ids(page)[:3]]
    assert "Read as LaTeX from Unicode:" in page


LONG = r"e^{x}\, = 1 + x + " + " + ".join(rf"\frac{{x^{{{k}}}}}{{{k}!}}" for k in range(2, 141))
"""A Taylor series of 3,000 characters and 840 symbols."""
SAID = "Your formula is long (840 symbols); its 3 largest parts were searched"


TERMS = r"\frac{x^{2}}{2!} + \frac{x^{3}}{3!} + \frac{x^{4}}{4!}"


@pytest.mark.django_db
def test_a_formula_too_long_to_search_whole_is_searched_by_its_parts_on_the_page_and_in_the_api(index_file, client):
    assert len(LONG) == 3000
    index_file([*FORMULAS, TERMS])
    answer = client.get("/api/search", {"q": LONG, "k": 5}).json()
    assert answer["long_formula"]["note"] == SAID and answer["long_formula"]["symbols"] == 840
    assert len(answer["long_formula"]["parts"]) == 3 and answer["results"][0]["latex"] == TERMS
    page = client.get("/", {"q": LONG}).content.decode()
    assert SAID in page and Formula.objects.get(pk=result_ids(page)[0]).latex == TERMS
    assert 'id="query-tree"' not in page  # the results are aligned to the parts, not to the whole formula
