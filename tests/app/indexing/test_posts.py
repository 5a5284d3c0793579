"""Storing posts: a reused id with other content is refused, a file indexed again reuses its posts, answers are
linked to the questions they name."""
import json

import pytest

from searchapp.models import Formula, Post

pytestmark = pytest.mark.django_db


def test_a_reused_post_id_with_other_content_is_a_record_error_and_the_first_post_is_kept(index_file):
    first = json.dumps({"id": "7", "title": "first", "body": "$a+b$"})
    job = index_file([first, json.dumps({"id": "7", "title": "second", "body": "$c-d$"}), first],
                     name="posts.jsonl", format="jsonl")
    assert (job.state, job.done, job.failed) == ("done", 2, 1)
    assert job.errors == [{"line": 2, "message": "post id '7' is already indexed with another title, body, url "
                                                 "or tags; give each post its own id"}]
    assert Post.objects.get(source_id="7").title == "first"
    assert not Formula.objects.filter(latex="c-d").exists()
    again = index_file([first], name="posts.jsonl", format="jsonl")
    assert (again.done, again.failed) == (1, 0)


def test_jsonl_answers_are_linked_to_the_question_they_name(index_file):
    job = index_file(['{"id": "q1", "title": "Is $x^2$ positive?", "body": "For real $x$."}',
                      '{"id": "a1", "parent": "q1", "body": "Yes: $x^2 + 1 > 0$."}',
                      '{"id": "a2", "parent": "gone", "body": "Its question is not in the corpus."}'],
                     name="posts.jsonl", format="jsonl")
    assert (job.state, job.done) == ("done", 3)
    assert dict(Post.objects.values_list("source_id", "parent__source_id")) == {"q1": None, "a1": "q1", "a2": None}
