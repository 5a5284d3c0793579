"""Posts written to be slow (issue 51's 40 KB of unclosed `\\(`), served by gunicorn (`searchapp.benchmarks.pages`):
a burst of each of their pages is answered, every request, and each page shows the post."""
import pytest

from searchapp.benchmarks import pages

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_burst_of_each_page_of_a_hostile_post_is_answered(service_env, tmp_path, client):
    target = pages.index_posts(tmp_path, {"code-span": pages.KINDS["code-span"]})["code-span"]
    for path in target.pages().values():
        assert "The code-span post" in client.get(path).content.decode(), path
    with pages.served(service_env["DATABASE_URL"], MATHSEARCH_WEB_WORKERS="1", MATHSEARCH_SEARCH_QUEUE="8",
                      MATHSEARCH_QUEUE_SECONDS=str(pages.TIMEOUT_SECONDS)) as base:  # answered, not refused
        for path in target.pages().values():
            answers = pages.burst([base + path] * pages.PARALLEL)  # a request unanswered after 300 s is status 0
            assert [status for status, _ in answers] == [200] * pages.PARALLEL, path
