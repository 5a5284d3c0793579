"""Every page a person meets, checked in a real browser at a laptop's and a phone's size: axe-core finds no serious
or critical violation, and nothing makes the page scroll sideways at 390 px (a long formula, a long word, a tree
scrolls by itself)."""
from urllib.parse import urlencode

import pytest

from searchapp.models import Feedback, Formula, Post
from tests.app.factories import index_thread_pages
from tests.e2e.factories import page_problems
from tests.ml.factories import formula_span

pytestmark = pytest.mark.e2e

VIEWPORTS = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
LONG_SUM = " + ".join(f"\\frac{{x_{{{n}}}^{{{n}}}}}{{{n}!}}" for n in range(1, 30))
LONG_WORD = "Supercalifragilistic" * 6
PAGES = {
    "11_12.html": ("Sums of squares", f"<p>Why is a sum of squares never negative? {LONG_WORD}</p>",
                   f"<p>Each square is non-negative: {formula_span(1, 'a^{2}+b^{2}=c^{2}')}, and the series "
                   f"{formula_span(2, LONG_SUM)} has only non-negative terms.</p>"),
}


@pytest.fixture
def site(transactional_db, tmp_path):
    """A thread indexed for real; the paths of the public pages that show it."""
    job = index_thread_pages(tmp_path / "pages", PAGES)
    question = Post.objects.get(source_id="11")
    formula = Formula.objects.get(latex=LONG_SUM)
    # people's feedback, so the results say which result it moved and which way
    Feedback.objects.create(query=LONG_SUM, formula=Formula.objects.exclude(pk=formula.pk).first(), kind="relevant",
                            rank=2, session_key="someone")
    Feedback.objects.create(query="Why is $a^2+b^2=c^2$ never negative?", post=Post.objects.get(source_id="12"),
                            kind="not_relevant", rank=1, session_key="someone")
    return job, ["/", "/?" + urlencode({"q": LONG_SUM}), "/?" + urlencode({"q": r"\frac{x_{1}}{\qvar{n}}"}),
                 "/?" + urlencode({"q": "why is $a^2+b^2$ never negative"}),
                 "/questions?" + urlencode({"q": "Why is $a^2+b^2=c^2$ never negative?"}),
                 f"/formula/{formula.pk}", f"/post/{question.pk}", "/posts", "/help", "/api/docs"]


@pytest.mark.parametrize("size", VIEWPORTS)
def test_public_pages_pass_axe_and_fit_the_screen(page, axe, site, size):
    page.set_viewport_size(VIEWPORTS[size])
    _, paths = site
    assert [problem for path in paths for problem in page_problems(page, path)] == []


@pytest.mark.parametrize("size", VIEWPORTS)
def test_staff_pages_pass_axe_and_fit_the_screen(staff_login, axe, site, size):
    staff_login.set_viewport_size(VIEWPORTS[size])
    job, _ = site
    paths = ["/admin/searchapp/indexjob/upload/", f"/admin/searchapp/indexjob/{job.pk}/live/"]
    assert [problem for path in paths for problem in page_problems(staff_login, path)] == []
