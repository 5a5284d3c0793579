"""/api/docs in a real browser: the vendored RapiDoc draws every operation of the schema under the site's CSP."""
import pytest
from playwright.sync_api import expect

from searchapp.web.openapi import schema

pytestmark = pytest.mark.e2e

OPERATIONS = [f"{method}-{path.replace('{', '-').replace('}', '-')}"  # RapiDoc's ids: get-/api/formulas/-id-
              for path, operations in schema("")["paths"].items() for method in operations]


@pytest.mark.parametrize("width, height", [pytest.param(1366, 768, id="desktop"), pytest.param(390, 844, id="phone")])
def test_the_docs_page_draws_every_operation_without_a_console_or_csp_error(page, console_errors, screenshot,
                                                                            width, height):
    page.set_viewport_size({"width": width, "height": height})
    response = page.goto("/api/docs")
    assert "script-src 'self'" in response.headers["content-security-policy"]  # the site's policy, no exception
    docs = page.locator("rapi-doc")
    expect(docs.get_by_text("Every answer is JSON, errors included: ").first).to_be_visible()
    assert len(OPERATIONS) == 11  # with /api/looks and /api/latex
    for content_id in OPERATIONS:  # CSS locators reach into RapiDoc's open shadow root
        expect(docs.locator(f'[data-content-id="{content_id}"]').first).to_be_attached()
    expect(docs.get_by_text("the parameters as a JSON body").first).to_be_attached()
    page.wait_for_timeout(300)  # RapiDoc draws the schemas of the operations after their headings
    screenshot(f"{width}x{height}", full_page=False)
    assert page.locator("main a[href='/api/schema']").is_visible()
    assert console_errors == []


def test_the_site_header_s_api_link_opens_the_docs(page):
    page.goto("/")
    page.get_by_role("navigation", name="Site").get_by_role("link", name="API").click()
    page.wait_for_url("**/api/docs")


def test_an_operation_tried_from_the_docs_is_answered_under_the_csp(page, console_errors):
    page.goto("/api/docs")
    docs = page.locator("rapi-doc")
    docs.locator('.nav-bar [data-content-id="post-/api/search"]').first.click()
    with page.expect_response(lambda r: r.url.endswith("/api/search") and r.request.method == "POST") as answer:
        docs.get_by_role("button", name="TRY").nth(1).click()  # the second operation: POST /api/search
    assert answer.value.status == 200 and answer.value.json()["query"] == "x^2 + y^2 = z^2"
    assert console_errors == []
