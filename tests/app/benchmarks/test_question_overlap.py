"""The exact baseline of the question benchmark: the share of the search's top 10 among the exact top 10."""
import pytest

from searchapp.benchmarks import question_speed
from searchapp.benchmarks.question_overlap import exhaustive_overlap
from searchapp.models import Post
from searchapp.search.questions import read_question
from tests.app.factories import SPEED_QUESTIONS as QUESTIONS

pytestmark = pytest.mark.django_db


def test_the_overlap_counts_only_posts_scored_among_the_exact_top(pages, tmp_path):
    question_speed.build(pages, 30, tmp_path / "posts.jsonl", progress=lambda _: None)
    question = read_question(QUESTIONS[0])
    found = [hit.post.pk for hit in Post.objects.search(QUESTIONS[0], k=30, corpus=question_speed.CORPUS).hits]
    assert len(found) > 10
    assert exhaustive_overlap(question_speed.CORPUS, [question, question], [found[:10], found[-10:]]) == [
        1.0, pytest.approx(sum(hit in found[:10] for hit in found[-10:]) / 10, abs=0.1)]
