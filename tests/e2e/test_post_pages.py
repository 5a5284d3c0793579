"""A post's page and the Posts list in a real browser: render_math.js draws the $…$ of the text under the CSP."""
import pytest
from playwright.sync_api import expect

from searchapp.models import Corpus, Post

pytestmark = pytest.mark.e2e

BODY = ("A circle $x^2 + y^2 = 1$ and a malformed $\\frac{1}$ formula, then $\\sqrt{2}$.\n\n"
        "An unclosed brace $x^{2$ leaves the rest of its own paragraph as text.\n\n"
        "$$\\int_0^1 t \\, dt = \\frac{1}{2}$$\n\nComment: a link $\\href{javascript:alert(1)}{click}$ is refused.")


@pytest.fixture
def question(transactional_db) -> Post:
    """Made directly; live_server sees it because transactional_db commits."""
    corpus = Corpus.objects.create(name="e2e-posts")
    found = Post.objects.create(corpus=corpus, source_id="q1", title="Why is $e^{i\\pi} = -1$?", body=BODY,
                                url="https://math.stackexchange.com/q/1", tags=["complex-analysis"])
    Post.objects.create(corpus=corpus, source_id="a1", parent=found, body="Because $e^{ix} = \\cos x + i \\sin x$.")
    return found


def test_post_page_renders_its_math_and_survives_a_malformed_formula(page, question, console_errors, screenshot):
    page.goto(f"/post/{question.pk}")
    text = page.locator(".post-text")
    expect(text.locator(".katex-display")).to_have_count(1)
    paragraphs = text.locator("p")
    assert paragraphs.nth(0).locator(".katex").count() == 2  # the formulas either side of the malformed one
    assert paragraphs.nth(0).locator(".katex-error").inner_text() == "\\frac{1}"  # shown as its source
    assert "$x^{2$" in paragraphs.nth(1).inner_text()  # $ pairs outside braces only, as in KaTeX's auto-render
    assert paragraphs.nth(3).locator(".katex").count() == 1 and text.locator("a").count() == 0  # trust: false
    assert page.locator("h1 .katex").count() == 1
    assert page.locator(".answers .katex").count() == 1
    assert page.locator(".post-formulas .katex").count() == 0  # made directly, the post has no occurrences
    screenshot("post")
    assert console_errors == []


def test_posts_list_renders_math_in_titles_and_snippets(page, question, console_errors):
    page.goto("/posts")
    expect(page.locator(".post-list h2 .katex")).to_have_count(2)  # the question's title, and its answer's
    assert page.locator(".post-list p .katex").count() >= 3
    page.click(f'a[href="/post/{question.pk}"] >> nth=0')
    expect(page.locator(".post-text .katex").first).to_be_visible()
    assert console_errors == []
