"""The question search's channels as a corpus grows: the posts nearest in words are ranked exactly in a small corpus,
through the posts' HNSW index past WORDS_EXACT_BELOW (exactly again when the index's reach holds too few of the
searched answers); the full-text channel reads a bounded number of posts however common the question's stems are."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from searchapp.models import Post
from searchapp.search import questions
from tests.app.conftest import index_thread_pages
from tests.app.search.test_post_search import PAGES

pytestmark = pytest.mark.django_db

QUESTION = "Are the eigenvalues of a symmetric matrix always real?"


@pytest.fixture
def nearest(tmp_path, monkeypatch):
    index_thread_pages(tmp_path / "pages", PAGES)
    monkeypatch.setattr(questions, "CHANNEL_SIZE", 2)
    vector = questions.read_question(QUESTION).vector

    def read() -> tuple[list[int], bool]:
        with CaptureQueriesContext(connection) as queries:
            found = questions._nearest_in_words(Post.objects.answers(), vector, None)
        return found, any("near AS MATERIALIZED" in query["sql"] for query in queries.captured_queries)
    return read


def test_a_small_corpus_is_ranked_exactly(nearest):
    found, through_index = nearest()
    assert not through_index
    assert Post.objects.get(pk=found[0]).source_id == "12"  # the eigenvalue question's answer


def test_past_the_exact_size_the_index_finds_the_same_nearest_answers(nearest, monkeypatch):
    exact, _ = nearest()
    monkeypatch.setattr(questions, "WORDS_EXACT_BELOW", 1)
    found, through_index = nearest()
    assert through_index
    assert found == exact


def test_too_few_answers_within_the_index_reach_falls_back_to_the_exact_ranking(nearest, monkeypatch):
    exact, _ = nearest()
    # the two posts nearest in words are the eigenvalue thread's question and answer: one answer only
    monkeypatch.setattr(questions, "WORDS_EXACT_BELOW", 1)
    monkeypatch.setattr(questions, "WORDS_REACH", 2)
    found, through_index = nearest()
    assert through_index
    assert found == exact


MATRIX_PAGE = {"51_52.html": ("Matrix multiplication", "<p>How do I multiply a matrix by a vector?</p>",
                              "<p>Take the dot product of each row of the matrix with the vector.</p>")}
EIGEN_QUESTION = "Symmetric matrix eigenvalues"


@pytest.fixture
def full_text(tmp_path):
    index_thread_pages(tmp_path / "pages", {**PAGES, **MATRIX_PAGE})
    return lambda: {Post.objects.get(pk=post_id).source_id for post_id in
                    questions._lexical_scores(None, EIGEN_QUESTION)}


def test_the_posts_holding_any_of_the_rarest_stems_are_read(full_text):
    assert full_text() == {"11", "12", "51", "52"}


def test_when_the_rarest_stem_is_common_only_the_posts_holding_two_rare_stems_are_read(full_text, monkeypatch):
    monkeypatch.setattr(questions, "RARE_TERMS", 3)
    monkeypatch.setattr(questions, "RARE_POSTINGS", 1)  # every stem is "common" now
    # the matrix thread holds "matrix" only; the eigenvalue thread holds all three
    assert full_text() == {"11", "12"}


def test_the_channel_never_reads_more_than_its_bound(full_text, monkeypatch):
    monkeypatch.setattr(questions, "READ_AT_MOST", 1)
    assert len(full_text()) == 1


def test_a_stem_with_a_quote_is_one_lexeme():
    assert questions._lexeme("o'neil") == "'o''neil'"
