import pytest

from tests.app.factories import SPEED_PAGES, write_thread_pages


@pytest.fixture
def pages(tmp_path):
    """The question-speed benchmark's thread pages, written (not indexed)."""
    write_thread_pages(tmp_path / "pages", SPEED_PAGES)
    return tmp_path / "pages"
