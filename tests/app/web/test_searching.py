"""The search as the web layer runs it: unreadable queries as 400s, Unicode math read as LaTeX and long formulas
searched by their parts (on the page and in the API), a formula's neighbours."""
import html
import re
from io import StringIO

import pytest
from django.core.management import call_command

from mathparse.unicode_math import from_unicode
from searchapp.errors import ApiError
from searchapp.feedback.people import Person
from searchapp.models import Formula
from searchapp.search.query_keys import formula_text_key
from searchapp.web.searching import formula_search, neighbours, read_query
from tests.app.factories import FORMULAS, result_ids

pytestmark = pytest.mark.django_db


def test_a_query_that_cannot_be_read_is_a_400_naming_its_notation_and_position():
    assert read_query("x^2", "latex").graphs.slt is not None
    with pytest.raises(ApiError) as raised:
        read_query(r"\frac{1}{", "latex")
    assert raised.value.code == "latex_unbalanced_braces" and raised.value.pos is not None


def test_a_formulas_neighbours_exclude_it_and_its_copies_in_other_corpora(index_file):
    index_file(corpus="one")
    index_file(corpus="two", name="two.txt")
    formula = Formula.objects.filter(latex="a^2 + b^2 = c^2").first()
    hits = neighbours(formula, k=3)
    assert len(hits) == 3 and all(hit.formula.visual_key != formula.visual_key for hit in hits)
    assert hits[0].formula.latex == "x^2 + y^2 = z^2"


UNICODE_QUERIES = [  # (as pasted, the corpus's formula it stands for)
    pytest.param("x⁻¹ + x²", "x^{-1} + x^2", id="superscripts"),
    pytest.param("a₁ + a₂", "a_1 + a_2", id="subscripts"),
    pytest.param("α + β = γ", r"\alpha + \beta = \gamma", id="greek"),
    pytest.param("∑_{k=1}^n k² ≤ ∞", r"\sum_{k=1}^{n} k^2 \le \infty", id="symbols"),
    pytest.param("½ + ¼", r"\frac{1}{2} + \frac{1}{4}", id="fractions"),
    pytest.param("𝐱 ∈ 𝔽ₚ", r"\mathbf{x} \in \mathbb{F}_p", id="alphanumerics"),
    pytest.param(r"\sqrt{2} + √(n² + 1)", r"\sqrt{2} + \sqrt{n^2 + 1}", id="mixed"),
]


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


def test_a_formula_too_long_to_search_whole_is_searched_by_its_parts_on_the_page_and_in_the_api(index_file, client):
    assert len(LONG) == 3000
    index_file([*FORMULAS, TERMS])
    answer = client.get("/api/search", {"q": LONG, "k": 5}).json()
    assert answer["long_formula"]["note"] == SAID and answer["long_formula"]["symbols"] == 840
    assert len(answer["long_formula"]["parts"]) == 3 and answer["results"][0]["latex"] == TERMS
    page = client.get("/", {"q": LONG}).content.decode()
    assert SAID in page and Formula.objects.get(pk=result_ids(page)[0]).latex == TERMS
    assert 'id="query-tree"' not in page  # the results are aligned to the parts, not to the whole formula


def test_a_long_formulas_search_is_logged_under_the_whole_formula(index_file):
    index_file([*FORMULAS, TERMS])
    served = formula_search(read_query(LONG, "latex"), Person(None, "s1"), k=3)
    assert len(served.results.hits) == 3
    assert (served.impression.query, served.impression.query_key) == (LONG, formula_text_key(LONG))
