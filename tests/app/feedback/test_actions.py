"""One judgment per person, query and result: latest wins, undo, people kept apart, answers judged, clicks logged."""
import json

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client

from searchapp.feedback.actions import Person, parse_feedback, record_feedback
from searchapp.models import Feedback, Post
from searchapp.search.query_keys import formula_text_key, question_key
from tests.app.factories import QUESTION_PAGES as PAGES
from tests.app.factories import index_thread_pages

pytestmark = pytest.mark.django_db


@pytest.fixture
def answer(tmp_path):
    index_thread_pages(tmp_path / "pages", PAGES)
    return Post.objects.filter(parent__isnull=False).first()


def send(client, kind, target, query="e^{i\\pi}", rank=1, **fields):
    key = "post_id" if isinstance(target, Post) else "formula_id"
    body = {"query": query, key: target.pk, "kind": kind, "rank": rank, **fields}
    return client.post("/api/feedback", json.dumps(body), content_type="application/json")


def judgments():
    return list(Feedback.objects.judgments().values_list("kind", "rank", "formula_id", "post_id", "session_key"))


def test_pressing_relevant_twelve_times_keeps_one_judgment(formula, client):
    statuses = [send(client, "relevant", formula).status_code for _ in range(12)]
    assert statuses == [201] + [200] * 11
    assert judgments() == [("relevant", 1, formula.pk, None, client.session.session_key)]


def test_the_latest_judgment_replaces_the_other_kind(formula, client):
    send(client, "relevant", formula, rank=3)
    first = Feedback.objects.get()
    response = send(client, "not_relevant", formula, rank=2)
    assert response.status_code == 200 and response.json()["id"] == first.pk
    assert judgments() == [("not_relevant", 2, formula.pk, None, client.session.session_key)]
    assert Feedback.objects.get().created_at > first.created_at  # when the judgment now held was sent


def test_none_takes_the_judgment_back_and_leaves_clicks(formula, client):
    send(client, "click", formula)
    send(client, "relevant", formula)
    response = send(client, "none", formula)
    assert response.status_code == 200
    assert response.json() | {"id": None} == {"id": None, "query": "e^{i\\pi}", "formula_id": formula.pk,
                                              "post_id": None, "kind": "none", "rank": 1, "fusion": "learned",
                                              "impression_id": None}
    assert judgments() == []
    assert Feedback.objects.get().kind == "click"
    assert send(client, "none", formula).status_code == 200  # nothing to take back is no error


def test_clicks_stay_a_log(formula, client):
    assert [send(client, "click", formula, rank=rank).status_code for rank in (1, 4)] == [201, 201]
    assert sorted(Feedback.objects.values_list("kind", "rank")) == [("click", 1), ("click", 4)]


def test_two_sessions_judge_apart(formula):
    one, two = Client(), Client()
    send(one, "relevant", formula)
    send(two, "not_relevant", formula)
    send(one, "none", formula)
    assert judgments() == [("not_relevant", 1, formula.pk, None, two.session.session_key)]


def test_another_query_is_another_judgment(formula, client):
    send(client, "relevant", formula, query="e^{i\\pi}")
    send(client, "not_relevant", formula, query="  e^{i\\pi} + 1  ")  # stripped, as the page searched it
    assert sorted(Feedback.objects.values_list("query", "kind")) == [("e^{i\\pi}", "relevant"),
                                                                     ("e^{i\\pi} + 1", "not_relevant")]


def test_a_logged_in_user_holds_one_judgment_across_sessions(formula):
    user = User.objects.create_user("ada", password="x")
    first, second = Client(), Client()
    for browser in (first, second):
        browser.force_login(user)
    send(first, "relevant", formula)
    send(second, "not_relevant", formula)
    assert list(Feedback.objects.judgments().values_list("user", "kind")) == [(user.pk, "not_relevant")]
    send(Client(), "relevant", formula)  # someone not logged in is someone else
    assert Feedback.objects.judgments().count() == 2


def test_an_answer_is_judged_replaced_and_taken_back(answer, client):
    response = send(client, "relevant", answer, fusion="bm25")
    assert response.status_code == 201 and response.json()["post_id"] == answer.pk
    send(client, "not_relevant", answer, fusion="bm25")
    assert judgments() == [("not_relevant", 1, None, answer.pk, client.session.session_key)]
    assert Feedback.objects.get().fusion == "bm25"
    send(client, "none", answer)
    assert judgments() == []


def test_a_click_on_an_answer_is_logged_with_its_rank(answer, client):
    assert send(client, "click", answer, rank=3).status_code == 201
    assert Feedback.objects.values_list("kind", "rank", "post_id").get() == ("click", 3, answer.pk)


@pytest.mark.parametrize("fields, message", [
    pytest.param({"formula_id": 1, "post_id": 1}, "give either formula_id or post_id", id="both"),
    pytest.param({}, "give either formula_id or post_id", id="neither"),
    pytest.param({"post_id": 1, "fusion": "max"}, "fusion must be one of ssemb", id="a-formula-order-for-an-answer"),
    pytest.param({"formula_id": 1, "fusion": "bm25"}, "fusion must be one of learned", id="a-mode-for-a-formula"),
    pytest.param({"post_id": 0}, "post_id must be an integer", id="post-zero"),
])
def test_the_result_judged_must_be_one_formula_or_one_answer(fields, message):
    from searchapp.errors import ApiError

    with pytest.raises(ApiError, match=message):
        parse_feedback({"query": "q", "kind": "relevant", "rank": 1, **fields})


def test_an_unknown_post_is_a_404(client):
    response = client.post("/api/feedback", json.dumps({"query": "q", "post_id": 10**9, "kind": "relevant",
                                                        "rank": 1}), content_type="application/json")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    assert "no post with id" in response.json()["message"]


def test_undo_counts_against_the_rate_limit(formula, client, settings):
    settings.MATHSEARCH_FEEDBACK_PER_MINUTE = 2
    assert [send(client, kind, formula).status_code for kind in ("relevant", "none", "relevant")] == [201, 200, 429]


def test_the_database_refuses_a_second_judgment_and_a_signal_on_nothing(formula, answer):
    Feedback.objects.create(query="q", formula=formula, kind="relevant", rank=1, session_key="s")
    Feedback.objects.create(query="q", formula=formula, kind="click", rank=1, session_key="s")
    Feedback.objects.create(query="q", post=answer, kind="relevant", rank=1, session_key="s")
    for fields in ({"formula": formula, "kind": "not_relevant"}, {"post": answer, "kind": "not_relevant"},
                   {"kind": "click"}, {"formula": formula, "post": answer, "kind": "click"}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Feedback.objects.create(query="q", rank=1, session_key="s", **fields)


def test_record_feedback_names_its_person(formula):
    signal = parse_feedback({"query": "q", "formula_id": formula.pk, "kind": "relevant", "rank": 1})
    stored, created = record_feedback(signal, Person(None, "session-a"), "127.0.0.1")
    again, created_again = record_feedback(signal, Person(None, "session-a"), "127.0.0.1")
    assert (created, created_again, again.pk) == (True, False, stored.pk)
    other, _ = record_feedback(signal, Person(None, "session-b"), "127.0.0.1")
    assert other.pk != stored.pk


def test_each_signal_is_stored_with_its_querys_normalised_key(formula, answer, client):
    send(client, "relevant", formula, query="e^{i\\pi}")
    send(client, "click", formula, query="e^{i \\pi }", rank=4)
    send(client, "relevant", answer, query="Why is it TRUE?")
    keys = dict(Feedback.objects.values_list("query", "query_key"))
    assert keys["e^{i\\pi}"] == keys["e^{i \\pi }"] == formula_text_key("e^{i\\pi}")
    assert keys["Why is it TRUE?"] == question_key("why is it true")
