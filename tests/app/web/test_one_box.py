"""One box for formulas and questions: what reads as a question, and the page a question gets (answers, and the
formulas like each of its formulas), on thread pages indexed for real."""
import html
import re
from urllib.parse import parse_qs

import pytest

from searchapp.models import Formula
from searchapp.web.one_box import reads_as_question
from tests.app.factories import index_thread_pages
from tests.ml.factories import formula_span

PYTHAGORAS = "a^{2}+b^{2}=c^{2}"
PAGES = {"11_12.html": ("Sums of squares", "<p>Why is a sum of two squares never negative?</p>",
                        f"<p>Each square is non-negative, and so is {formula_span(1, PYTHAGORAS)} on both sides.</p>")}


@pytest.mark.parametrize("text, notation, question", [
    ("integral of x squared", "auto", True),
    (r"area of a circle \pi r^2", "auto", True),
    (r"$x^2 + 1$ is prime", "auto", True),  # one word beside a formula between dollars
    (r"$x^2 + 1$ and $\frac{a}{b}$", "auto", True),  # two formulas
    (r"$x^2 + 1$", "auto", False),
    (r"x^2 + y^2 = z^2", "auto", False),
    (r"\sin x + \log y", "auto", False),  # named functions are a formula's own words
    (r"\text{area} = \pi r^2 \text{ when } r > 0", "latex", False),
    (r"\operatorname{Var}(X) + \mathrm{Cov}(X, Y)", "auto", False),
    (r"abc = 1", "auto", False),  # one run of letters is a product, as written
    (r"\frac{\partial f}{\partial x}", "auto", False),
    (r"\begin{pmatrix} 1 \\ 2 \end{pmatrix}", "auto", False),  # an environment's name is no word
    (r"\begin{split} a &= b \\ &= c \end{split}", "auto", False),
    ("<math><mi>area</mi><mi>circle</mi></math>", "auto", False),
    ("[V!area]next[V!circle]", "slt", False),
])
def test_words_outside_formulas_make_a_question(text, notation, question):
    assert reads_as_question(text, notation) is question


@pytest.fixture
def squares(transactional_db, tmp_path):
    return index_thread_pages(tmp_path / "pages", PAGES)


def test_a_question_in_the_box_lists_answers_and_the_formulas_like_its_formula(squares, client):
    page = client.get("/", {"q": "why is $x^2+y^2=z^2$ never negative", "corpus": "threads"}).content.decode()
    assert re.search(r'id="results-title"[^>]*>\s*1 answer\s+in', page)
    assert 'id="answer-1"' in page and "Sums of squares" in page
    beside = page[page.index('<aside class="formula-hits"'):page.index("</aside>")]
    assert 'data-latex="x^2+y^2=z^2"' in beside  # the question's formula, as typed
    hit = Formula.objects.get(latex=PYTHAGORAS)
    assert f'href="/formula/{hit.pk}?q=' in beside
    more = parse_qs(html.unescape(re.search(r'href="\?([^"]*)">All formulas like this', beside).group(1)))
    assert more == {"q": ["x^2+y^2=z^2"], "corpus": ["threads"], "as": ["formula"]}


def test_as_formula_reads_the_whole_box_as_one_formula(squares, client):
    page = client.get("/", {"q": "why is $x^2+y^2=z^2$ never negative", "as": "formula"}).content.decode()
    assert re.search(r'id="results-title"[^>]*>\s*\d+ formulas?\s+in', page)
    assert 'class="formula-hits"' not in page and 'id="answer-1"' not in page
    assert '<input type="hidden" name="as" value="formula">' in page  # a new search stays in the Formulas tab
    assert re.search(r'href="/\?q=[^"]*&amp;as=formula" aria-current="page">Formulas</a>', page)


def test_a_formula_in_the_box_lists_formulas_with_no_answers(squares, client):
    page = client.get("/", {"q": "a^2+b^2=c^2"}).content.decode()
    assert 'data-formula="' in page and 'class="formula-hits"' not in page
    assert re.search(r'aria-current="page">All</a>', page)
