"""Long queries in a real browser: a query past a safe URL length is POSTed by static/js/long_query.js, pages and
hints included; a short one stays a shareable GET URL."""
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

FORMULAS = [r"a^2 + b^2 = c^2", *(f"x^{{{n}}} + {n}" for n in range(1, 26))]
LONG_QUERY = (r"a^2+b^2=c^2 \text{" + "where a, b and c are the sides of a right triangle; " * 90)[:4499] + "}"


def test_a_4500_character_query_typed_and_submitted_shows_results_and_pages_by_post(page, indexed, console_errors):
    indexed(FORMULAS)
    page.goto("/")
    assert len(LONG_QUERY) == 4500
    page.fill("#q", LONG_QUERY)
    with page.expect_request(lambda request: request.url.endswith("/") and request.method == "POST"):
        page.press("#q", "Enter")
    expect(page.locator(".result").first).to_be_visible()
    assert page.url.endswith("/") and "?" not in page.url  # the query went in the body, not the URL
    assert page.input_value("#q") == LONG_QUERY
    expect(page.locator(".pager")).to_contain_text("Page 1 of 2")
    with page.expect_request(lambda request: request.method == "POST"):
        page.click(".pager a[rel=next]")  # its URL is as long as the query: POSTed too
    expect(page.locator(".pager")).to_contain_text("Page 2 of 2")
    assert page.get_attribute("ol.results", "start") == "21"
    assert console_errors == []


def test_a_short_query_stays_a_get_url_after_a_long_one(page, indexed):
    indexed(FORMULAS)
    page.goto("/")
    page.fill("#q", LONG_QUERY)
    page.press("#q", "Enter")
    expect(page.locator(".result").first).to_be_visible()
    page.fill("#q", "a^2 + b^2")
    page.press("#q", "Enter")
    page.wait_for_url("**/?q=a%5E2+%2B+b%5E2**")
    expect(page.locator(".result").first).to_be_visible()


def test_a_long_question_is_posted_and_answered(page, transactional_db, tmp_path, console_errors):
    from tests.app.factories import EIGEN_QUESTION, index_threads

    index_threads(tmp_path / "pages")
    question = ((EIGEN_QUESTION + " ") * 80)[:4600]
    page.goto("/questions")
    page.fill("#question", question)
    with page.expect_request(lambda request: request.url.endswith("/questions") and request.method == "POST"):
        page.press("#question", "Control+Enter")
    expect(page.locator(".result").first).to_be_visible()
    assert console_errors == []
