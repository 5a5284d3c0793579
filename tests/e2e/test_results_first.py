"""Results first: after a search the query panel is one line and out of the way, the first result is on screen and a
few key presses away, where the good matches end is marked, and words in the box list answers."""
import pytest
from playwright.sync_api import expect

from tests.app.factories import index_thread_pages
from tests.ml.factories import formula_span

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1366, "height": 768}
FORMULAS = [r"e^{i\pi} + 1 = 0", r"x^2 + y^2 = z^2", r"a^2 + b^2 = c^2", r"\frac{a}{b} + \frac{c}{d}",
            r"\sum_{n=1}^{\infty} \frac{1}{n^2} = \frac{\pi^2}{6}", r"\sin^2 x + \cos^2 x = 1", r"\sqrt{x^2 + 1}"]


def _search(page, query: str) -> None:
    page.set_viewport_size(LAPTOP)
    page.goto("/")
    page.fill("#q", query)
    page.press("#q", "Enter")
    page.wait_for_selector("#results-title")


def test_after_a_search_the_first_result_is_on_screen_and_the_focus_is_on_the_results(page, indexed, screenshot):
    indexed(FORMULAS)
    _search(page, r"e^{i\pi} + 1 = 0")
    expect(page.locator(".refine")).not_to_have_attribute("open", "")  # symbols and options folded into one line
    expect(page.locator("#preview")).to_be_hidden()  # the query is in the box, not repeated above the results
    formula = page.locator(".result .formula-link").first.bounding_box()
    assert formula["y"] + formula["height"] <= LAPTOP["height"], "the first result's formula is below the fold"
    assert page.locator(".result .katex-mathml math").count() >= 1  # what screen readers read of each formula
    expect(page.locator("#results-title")).to_be_focused()
    page.keyboard.press("Tab")  # the heading's link to what the fusion does,
    expect(page.locator("#results-title a")).to_be_focused()
    page.keyboard.press("Tab")  # then the first result
    assert page.evaluate("document.activeElement === document.querySelector('.result')")
    screenshot("results-first", full_page=False)


def test_the_query_panel_scrolls_away_and_never_covers_a_focused_result(page, indexed):
    indexed(FORMULAS)
    _search(page, "x^2 + y^2 = z^2")
    last = page.locator(".result").last
    last.focus()
    box, panel = last.bounding_box(), page.locator(".query-panel").bounding_box()
    assert box["y"] >= 0 and box["y"] + 20 <= LAPTOP["height"]
    assert panel["y"] + panel["height"] <= box["y"], "the query panel lies over the focused result"


def test_a_skip_link_leads_past_the_header(page):
    page.goto("/")
    page.keyboard.press("Tab")
    skip = page.locator(".skip-link")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()


def test_where_the_good_matches_end_is_marked(page, indexed):
    indexed(FORMULAS)
    _search(page, r"e^{i\pi} + 1 = 0")
    strong = page.locator("ol.results:not(.weaker) > .result")
    expect(strong).to_have_count(1)
    assert strong.first.locator(".formula-link .math").get_attribute("data-latex") == r"e^{i\pi} + 1 = 0"
    expect(page.locator("#weaker")).to_contain_text("Less alike: the score drops from")
    assert page.locator("ol.results.weaker").get_attribute("start") == "2"  # numbering goes on below the cut


def test_a_question_in_the_box_lists_answers_beside_the_formulas_like_its_own(page, transactional_db, tmp_path,
                                                                              console_errors, screenshot):
    index_thread_pages(tmp_path / "pages", {"11_12.html": (
        "Sums of squares", "<p>Why is a sum of two squares never negative?</p>",
        f"<p>Each square is non-negative, so {formula_span(1, 'a^{2}+b^{2}=c^{2}')} has no negative side.</p>")})
    _search(page, "why is $x^2+y^2$ never negative")
    expect(page.locator("#results-title")).to_contain_text("1 answer")
    expect(page.locator("#results-title")).to_be_focused()
    page.keyboard.press("Tab")  # the first answer, not the hint above the heading ("search it all as one formula")
    expect(page.locator(".post-result .post-link").first).to_be_focused()
    expect(page.locator(".post-result .post-result-title")).to_contain_text("Sums of squares")
    beside = page.locator(".formula-hits")
    expect(beside.locator("h3 .katex")).to_have_count(1)  # the question's formula
    expect(beside.locator("li .katex").first).to_be_visible()  # and the formulas like it, the answer's first
    assert beside.locator("li .math").first.get_attribute("data-latex") == "a^{2}+b^{2}=c^{2}"
    answers, aside = page.locator(".answers-beside > ol").bounding_box(), beside.bounding_box()
    assert aside["x"] >= answers["x"] + answers["width"], "at a laptop's width the formulas stand beside the answers"
    screenshot("one-box-question", full_page=False)
    expect(page.locator("#formula-editor")).to_be_hidden()  # a question is no formula to edit: the editor steps aside
    page.fill("#q", "x^2+y^2")
    expect(page.locator("#formula-editor")).to_be_visible()  # and comes back for a formula
    page.fill("#q", "why is $x^2+y^2$ never negative")
    page.click("text=search it all as one formula")
    page.wait_for_selector("#results-title")
    expect(page.locator(".tabs [aria-current=page]")).to_have_text("Formulas")
    expect(page.locator("#results-title")).to_contain_text("formula")
    assert console_errors == []
