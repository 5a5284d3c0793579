"""On a query people ask often, the results shown to learn say so, on a wide screen and on a phone."""
import pytest

from searchapp.models import Formula
from tests.app.factories import log_page
from tests.app.search.test_exploration import FORMULAS, QUERY
from tests.e2e.factories import page_problems

pytestmark = pytest.mark.e2e


def test_a_result_shown_to_learn_says_why_it_stands_there(page, axe, console_errors, indexed, settings, screenshot):
    settings.MATHSEARCH_EXPLORE_PLACES = 2
    indexed(FORMULAS)
    top = [hit.formula for hit in Formula.objects.search(QUERY, k=10, corpus="e2e").hits]
    for person in range(12):
        log_page(QUERY, top, session=f"p{person}")
    for width, height in ((1366, 768), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        assert page_problems(page, "/?q=x%5E2%20%2B%20y%5E2%20%3D%20z%5E2&corpus=e2e") == []  # axe; no sideways scroll
        notes = page.locator(".result .exploring")
        assert notes.count() == 2
        assert [int(rank) for rank in page.locator(".result:has(.exploring)").evaluate_all(
            "items => items.map(item => item.dataset.rank)")] == [11, 12]
        assert "Shown to learn:" in notes.first.inner_text()
        page.locator("#result-11").scroll_into_view_if_needed()
        screenshot(f"{width}", full_page=False)
    assert console_errors == []
