"""/api/docs in a real browser: the vendored Swagger UI draws every operation of the schema under the site's CSP,
passes axe-core with every operation open, and answers an operation tried from the page."""
import pytest
from playwright.sync_api import expect

from searchapp.web.openapi import schema
from tests.e2e.factories import problems_on_screen

pytestmark = pytest.mark.e2e

OPERATIONS = sorted((method.upper(), path) for path, operations in schema("")["paths"].items() for method in operations)
VIEWPORTS = [pytest.param(1366, 768, id="desktop"), pytest.param(390, 844, id="phone")]


def open_docs(page, navigate=True):
    if navigate:
        page.goto("/api/docs")
    expect(page.locator("#api-docs")).to_have_attribute("aria-busy", "false")  # Swagger UI has drawn the schema


def drawn_operations(page) -> list[tuple[str, str]]:
    return sorted(page.locator("#api-docs .opblock-summary").evaluate_all(
        "summaries => summaries.map(s => [s.querySelector('.opblock-summary-method').textContent,"
        " s.querySelector('.opblock-summary-path').dataset.path])"))


@pytest.mark.parametrize("width, height", VIEWPORTS)
def test_the_docs_page_draws_every_operation_without_a_console_or_csp_error(page, console_errors, screenshot,
                                                                            width, height):
    page.set_viewport_size({"width": width, "height": height})
    response = page.goto("/api/docs")
    assert "script-src 'self'" in response.headers["content-security-policy"]  # the site's policy, no exception
    open_docs(page, navigate=False)
    assert len(OPERATIONS) == 11  # with /api/looks and /api/latex
    assert [tuple(operation) for operation in drawn_operations(page)] == OPERATIONS
    expect(page.locator("#api-docs").get_by_text("Every answer is JSON, errors included: ")).to_be_visible()
    screenshot(f"{width}x{height}", full_page=False)
    assert page.locator("main a[href='/api/schema']").first.is_visible()
    assert console_errors == []


@pytest.mark.parametrize("width, height", VIEWPORTS)
def test_every_operation_opened_passes_axe_and_fits_the_screen(page, axe, width, height):
    """Opened, an operation shows its fields ready to try (parameters, a JSON body, enumerations as lists): each has
    a name for a screen reader, every colour passes, and nothing is wider than a phone."""
    page.set_viewport_size({"width": width, "height": height})
    open_docs(page)
    for summary in page.locator("#api-docs .opblock-summary-control").all():
        summary.click()
    expect(page.locator("#api-docs .opblock-body")).to_have_count(len(OPERATIONS))
    expect(page.locator("#api-docs .execute")).to_have_count(len(OPERATIONS))  # each ready to try
    expect(page.locator("#api-docs select[aria-label='notation (query parameter)']")).to_have_count(1)
    assert problems_on_screen(page, f"/api/docs at {width} px, every operation open") == []


def test_the_site_header_s_api_link_opens_the_docs(page):
    page.goto("/")
    page.get_by_role("navigation", name="Site").get_by_role("link", name="API").click()
    page.wait_for_url("**/api/docs")


def test_an_operation_tried_from_the_docs_is_answered_under_the_csp(page, console_errors):
    open_docs(page)
    operation = page.locator("#operations-search-searchPosted")
    operation.locator(".opblock-summary-control").click()
    body = operation.get_by_role("textbox", name="Request body (JSON)")
    expect(body).to_have_value('{\n  "q": "\\\\frac{1}{n^2}",\n  "k": 10,\n  "fusion": "learned"\n}')
    with page.expect_response(lambda r: r.url.endswith("/api/search") and r.request.method == "POST") as answer:
        operation.get_by_role("button", name="Execute").click()
    assert answer.value.status == 200 and answer.value.json()["query"] == r"\frac{1}{n^2}"
    expect(operation.locator(".live-responses-table tr.response .response-col_status")).to_have_text("200")
    assert console_errors == []
