"""Everyday input in a real browser: the results of Unicode math say the LaTeX it was read as, and those of a formula
too long to search whole which parts were searched; both pages pass axe-core and fit a laptop's and a phone's screen
(the editor's side: test_formula_editor.py)."""
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.e2e.factories import FORMULAS, page_problems

pytestmark = pytest.mark.e2e

VIEWPORTS = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
LONG = r"e^{x}\, = 1 + x + " + " + ".join(rf"\frac{{x^{{{k}}}}}{{{k}!}}" for k in range(2, 141))
"""The Taylor series of 3,000 characters and 840 symbols of tests/app/web/test_search_page.py."""
TERMS = r"\frac{x^{2}}{2!} + \frac{x^{3}}{3!} + \frac{x^{4}}{4!}"


@pytest.mark.parametrize("size", VIEWPORTS)
def test_the_notes_of_unicode_and_long_formulas_pass_axe_and_fit_the_screen(page, axe, indexed, screenshot, size):
    indexed([*FORMULAS, TERMS])
    page.set_viewport_size(VIEWPORTS[size])
    assert page_problems(page, "/?" + urlencode({"q": "x² + y² = z²"})) == []
    expect(page.locator("#unicode-hint .katex")).to_be_visible()
    screenshot(f"unicode-{size}", full_page=False)
    assert page_problems(page, "/?" + urlencode({"q": LONG})) == []
    expect(page.locator("#long-hint")).to_contain_text("Your formula is long (840 symbols); its 3 largest parts were "
                                                       "searched")
    page.click("#long-hint summary")
    expect(page.locator("#long-hint li .katex")).to_have_count(3)
    screenshot(f"long-{size}", full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
