"""The Question tab in a real browser: the live preview draws the question's $…$ math, results render theirs,
all under the CSP."""
import pytest
from playwright.sync_api import expect

from tests.app.factories import index_threads

pytestmark = pytest.mark.e2e


@pytest.fixture
def threads(transactional_db, tmp_path):
    """Indexed in this process; live_server sees them because transactional_db commits."""
    return index_threads(tmp_path / "pages")


def test_typing_a_question_previews_its_math(page, console_errors, screenshot):
    page.goto("/questions")
    preview = page.locator("#question-preview")
    expect(preview).to_be_hidden()
    page.locator("#question").press_sequentially(r"Is $\frac{a}{b}$ less than $\sqrt{2}$, and <b>why</b>?")
    expect(preview.locator(".katex")).to_have_count(2)
    expect(preview).to_contain_text("<b>why</b>")  # typed text stays text
    page.fill("#question", r"Broken $\frac{1}$ and fine $x^2$")
    expect(preview.locator(".katex")).to_have_count(1)
    assert preview.locator(".katex-error").inner_text() == r"\frac{1}"  # shown as its source, the rest still drawn
    screenshot("question-preview")
    page.fill("#question", "")
    expect(preview).to_be_hidden()
    assert console_errors == []


def test_submitting_shows_answers_with_rendered_math(page, threads, console_errors, screenshot):
    page.goto("/questions")
    page.fill("#question", "Are the eigenvalues of a symmetric matrix real when $A^T = A$?")
    page.select_option("select[name=mode]", "ssemb")
    page.press("#question", "Control+Enter")
    page.wait_for_selector(".post-result")
    assert "q=Are+the+eigenvalues" in page.url
    first = page.locator(".post-result").first
    expect(first.locator(".post-result-title .katex")).to_have_count(1)  # the question's title, $A^{T}=A$
    expect(first.locator(".matched .katex")).to_have_count(1)
    assert first.locator(".snippet .katex").count() == 1
    expect(page.locator("#question-preview")).to_be_hidden()  # the question is in the box, not repeated above the answers
    page.press("#question", "End")
    page.keyboard.type(" And $B$?")
    expect(page.locator("#question-preview .katex")).to_have_count(2)  # edited: previewed again
    screenshot("question-results")
    first.locator(".post-result-title a").click()
    expect(page.locator(".post-text .katex").first).to_be_visible()
    assert console_errors == []
