"""No page is wider than a phone (390 px) when a corpus holds long inline formulas: in a post's text, a snippet, a
result or a question's answers, such a formula scrolls inside its own box (which then takes the keyboard focus)."""
from urllib.parse import urlencode

import pytest

from searchapp.models import Formula, Post
from tests.e2e.factories import index_documents, page_problems

pytestmark = pytest.mark.e2e

# Each is one unbreakable piece for KaTeX (no relation or operator at its top level), so it cannot wrap.
BRACKETED = r"\left(" + " + ".join(f"a_{{{n}}} b_{{{n}}}" for n in range(1, 40)) + r"\right)^{2}"
FRACTION = r"\frac{" + " + ".join(f"x_{{{n}}}^{{{n}}}" for n in range(1, 30)) + "}{" + " + ".join(
    f"y_{{{n}}}" for n in range(1, 30)) + "}"
ROOT = r"\sqrt{" + " + ".join(f"\\sin^{{2}} \\theta_{{{n}}}" for n in range(1, 25)) + "}"
NOTE = f"""# Sums of squares

A square of a long sum, ${BRACKETED}$, is never negative, and neither is ${ROOT}$ when the angles are real.

## Ratios

The ratio ${FRACTION}$ stays between the smallest and the largest of its terms' ratios.
"""


@pytest.fixture
def paths(transactional_db, tmp_path) -> list[str]:
    """The pages a person reaches from searching such a corpus: formula and question results, the posts, the
    formulas' own pages and the Posts list."""
    index_documents(tmp_path / "notes", {"squares.md": NOTE}, corpus="notes")
    formulas = Formula.objects.filter(latex__in=[BRACKETED, FRACTION, ROOT])
    assert formulas.count() == 3
    question = "why is $" + BRACKETED + "$ never negative"
    return (["/?" + urlencode({"q": latex}) for latex in (BRACKETED, FRACTION)]
            + ["/?" + urlencode({"q": question}), "/questions?" + urlencode({"q": question}), "/posts"]
            + [f"/post/{post.pk}" for post in Post.objects.all()]
            + [f"/formula/{formula.pk}" for formula in formulas])


def test_no_page_reached_from_long_inline_formulas_is_wider_than_a_phone(page, axe, paths):
    page.set_viewport_size({"width": 390, "height": 844})
    assert len(paths) == 10  # 2 formula searches, 2 question searches, the list, 2 posts (one a section), 3 formulas
    assert [problem for path in paths for problem in page_problems(page, path)] == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the last page too, as the brief reads it
