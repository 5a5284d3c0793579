"""A post page of a book written with a real macro file (tests/data/macro_book) as a reader sees it: every formula
drawn by KaTeX (no red source), the references numbered, each numbered equation showing its number, at a desktop
and a phone width; and a formula result showing its number."""
from urllib.parse import quote

import pytest

from searchapp.models import Post
from tests.corpora.documents.test_macro_book import BOOK
from tests.e2e.factories import page_problems

pytestmark = pytest.mark.e2e


@pytest.fixture
def book(transactional_db):
    from searchapp.indexing.actions import start_index_job
    from searchapp.indexing.jobs import run_job

    job = run_job(start_index_job(BOOK, "documents", "book", enqueue=False))
    assert (job.state, job.failed) == ("done", 0), job.errors
    return Post.objects.get(source_id="chapters/paths.tex#path-induction")


def test_a_post_of_the_book_is_drawn_whole_and_numbered(page, axe, book, screenshot):
    for width, height in ((1366, 768), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        assert page_problems(page, f"/post/{book.pk}") == []
        text = page.locator(".post-page")
        text.locator(".katex").first.wait_for()
        assert text.locator(".katex-error").count() == 0
        assert text.locator(".katex").count() >= 7
        assert "see Lemma 1.1." in text.inner_text() and "(1.3) bounds a sum" in text.inner_text()
        assert page.locator('[id="eq:norm"] .formula-number').inner_text() == "(1.3)"
        screenshot(f"post-{width}", full_page=False)


def test_a_formula_result_shows_its_number(page, book, screenshot):
    query = r"\norm*{\sum_{i=1}^n x_i}^2 \le n \sum_{i=1}^n \norm{x_i}^2"  # as the book's source writes it
    for width, height in ((1366, 768), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/?q={quote(query)}&corpus=book")
        first = page.locator(".result").first
        assert "(1.3)" in first.locator(".snippet .formula-number").first.inner_text()
        assert "Read with the macros of this corpus" in page.inner_text("main")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(f"results-{width}", full_page=False)
