"""Relevance feedback through /api/feedback and the no-JS form: CSRF, rate limits per session and address, validation;
one judgment per person, query and result: latest wins, undo, people kept apart, answers judged, clicks logged."""
import json
import os
import subprocess
import sys

import pytest
from django.contrib.auth.models import User
from django.test import Client

from searchapp.feedback.actions import parse_feedback, record_feedback
from searchapp.feedback.people import ADDRESS_SHARE, Person
from searchapp.models import Feedback, Post
from searchapp.search.query_keys import formula_text_key, question_key
from tests.app.factories import QUESTION_PAGES as PAGES
from tests.app.factories import csrf_client, index_thread_pages, through_nginx
from tests.conftest import REPO

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
                                              "impression_id": None, "explanation": ""}
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


def test_a_judgment_is_held_by_the_querys_meaning_whatever_the_spelling(formula, client, answer):
    assert send(client, "relevant", formula, query="e^{i\\pi}").status_code == 201
    replaced = send(client, "not_relevant", formula, query="e^{ i \\pi }")  # the same formula, written otherwise
    assert replaced.status_code == 200
    assert list(Feedback.objects.values_list("query", "kind")) == [("e^{ i \\pi }", "not_relevant")]
    assert send(client, "none", formula, query="e^{i\\pi}").status_code == 200  # taken back from the first spelling
    assert not Feedback.objects.exists()
    send(client, "relevant", answer, query="Why is it TRUE?")
    send(client, "not_relevant", answer, query="why is it   true")  # a question spaced and cased otherwise
    assert list(Feedback.objects.values_list("kind", flat=True)) == ["not_relevant"]


def test_the_answer_says_what_people_now_say_of_the_result(formula, client):
    Feedback.objects.create(query="e^{i\\pi}", formula=formula, kind="relevant", rank=1, session_key="someone")
    assert send(client, "relevant", formula).json()["explanation"] == "2 people found this relevant"
    assert send(client, "none", formula).json()["explanation"] == "1 person found this relevant"


def test_a_crawlers_signals_are_refused(formula, client):
    response = client.post("/api/feedback", json.dumps({"query": "q", "formula_id": formula.pk, "kind": "relevant",
                                                        "rank": 1}), content_type="application/json",
                           HTTP_USER_AGENT="Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
    assert (response.status_code, response.json()["code"]) == (403, "crawler")
    assert not Feedback.objects.exists()


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


def signal(formula, kind="relevant", query="e^{i\\pi}", rank=1):
    return {"query": query, "formula_id": formula.pk, "kind": kind, "rank": rank, "fusion": "max"}


def post_json(client, data, **headers):
    return client.post("/api/feedback", json.dumps(data), content_type="application/json", **headers)


def test_feedback_with_the_csrf_token_is_stored(formula):
    client, token = csrf_client()
    response = post_json(client, signal(formula), HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 201
    stored = Feedback.objects.get(pk=response.json()["id"])
    assert (stored.query, stored.formula_id, stored.kind, stored.rank) == ("e^{i\\pi}", formula.pk, "relevant", 1)
    assert stored.session_key == client.session.session_key != ""


def test_feedback_without_the_csrf_token_is_refused_as_json(formula):
    client, _ = csrf_client()
    response = post_json(client, signal(formula))
    assert response.status_code == 403
    assert response.json()["code"] == "csrf_failed"
    assert not Feedback.objects.exists()


def test_feedback_is_rate_limited_per_session(formula, settings):
    settings.MATHSEARCH_FEEDBACK_PER_MINUTE = 3
    client, token = csrf_client()
    statuses = [post_json(client, signal(formula, "click"), HTTP_X_CSRFTOKEN=token).status_code for _ in range(5)]
    assert statuses == [201, 201, 201, 429, 429]
    assert Feedback.objects.count() == 3
    other, other_token = csrf_client()
    assert post_json(other, signal(formula), HTTP_X_CSRFTOKEN=other_token).status_code == 201


def test_the_rate_limit_is_shared_by_every_web_process(formula, settings):
    """Another process (a second gunicorn worker) sees this one's count and refuses the client's next signal."""
    settings.MATHSEARCH_FEEDBACK_PER_MINUTE = 1
    client, token = csrf_client()
    assert post_json(client, signal(formula), HTTP_X_CSRFTOKEN=token).status_code == 201
    other_process = subprocess.run(
        [sys.executable, "-c", "import django, sys; django.setup();"
         " from searchapp.feedback.people import check_rate, RateLimited\n"
         "try: check_rate(sys.argv[1])\nexcept RateLimited: print('refused')", client_key_of(client)],
        cwd=REPO, env={**os.environ, "MATHSEARCH_FEEDBACK_PER_MINUTE": "1"},  # this suite's settings, and cache
        capture_output=True, text=True)
    assert other_process.stdout.strip() == "refused", other_process.stderr


def client_key_of(client) -> str:
    return f"session:{client.session.session_key}"


def test_dropping_the_session_cookie_does_not_reset_the_limit_of_an_address(formula, settings):
    settings.MATHSEARCH_FEEDBACK_PER_MINUTE = 2  # 20 a minute from one address, 2 per session
    statuses = []
    for _ in range(25):  # a fresh cookieless client each time: a new session, the same address
        client, token = csrf_client()
        statuses.append(post_json(client, signal(formula), HTTP_X_CSRFTOKEN=token).status_code)
    assert statuses == [201] * 20 + [429] * 5


def test_behind_the_proxy_the_address_limit_is_the_forwarded_clients(formula, settings):
    """Every signal comes from nginx's address: counted by it, one client's fresh sessions used up everyone's share.
    The address is the login lockout's (`client_ip`), so a forged `X-Forwarded-For` entry escapes neither."""
    settings.SECURE = True
    settings.MATHSEARCH_FEEDBACK_PER_MINUTE = 1

    def fresh_session_through_nginx(forwarded_for: str) -> int:
        client, token = csrf_client()
        return post_json(client, signal(formula, "click"), HTTP_X_CSRFTOKEN=token,
                         **through_nginx(forwarded_for)).status_code

    statuses = [fresh_session_through_nginx("203.0.113.7") for _ in range(ADDRESS_SHARE + 1)]
    assert statuses == [201] * ADDRESS_SHARE + [429]
    assert fresh_session_through_nginx("198.51.100.9, 203.0.113.7") == 429
    assert fresh_session_through_nginx("198.51.100.2") == 201


@pytest.mark.parametrize("change, status, code", [
    pytest.param({"kind": "love"}, 400, "invalid_parameter", id="unknown-kind"),
    pytest.param({"rank": 0}, 400, "invalid_parameter", id="rank-zero"),
    pytest.param({"rank": "first"}, 400, "invalid_parameter", id="rank-not-a-number"),
    pytest.param({"query": "  "}, 400, "invalid_parameter", id="empty-query"),
    pytest.param({"query": "x\x00y"}, 400, "invalid_parameter", id="nul-in-query"),
    pytest.param({"query": " " + "x" * 5000}, 400, "invalid_parameter", id="query-too-long-as-sent"),
    pytest.param({"fusion": "median"}, 400, "invalid_parameter", id="unknown-fusion"),
    pytest.param({"formula_id": 10**9}, 404, "not_found", id="unknown-formula"),
    pytest.param({"rank": 2**31}, 400, "invalid_parameter", id="rank-past-the-integer-column"),
    pytest.param({"formula_id": 2**63}, 400, "invalid_parameter", id="id-past-the-bigint-column"),
    pytest.param({"formula_id": 1.5}, 400, "invalid_parameter", id="id-a-fraction"),
    pytest.param({"formula_id": True}, 400, "invalid_parameter", id="id-a-bool"),
    pytest.param({"formula_id": [1]}, 400, "invalid_parameter", id="id-a-list"),
    pytest.param({"rank": "9" * 5000}, 400, "invalid_parameter", id="rank-of-5000-digits"),
    pytest.param({"query": ["x"]}, 400, "invalid_parameter", id="query-a-list"),
])
def test_invalid_feedback_is_a_json_error(formula, client, change, status, code):
    response = post_json(client, {**signal(formula), **change})
    assert response.status_code == status
    assert response.json()["code"] == code
    assert not Feedback.objects.exists()


def test_integral_json_numbers_are_integers(formula, client):
    """JSON Schema, and so the OpenAPI schema, counts 2.0 as an integer (schemathesis sent one)."""
    response = post_json(client, {**signal(formula), "formula_id": float(formula.pk), "rank": 2.0})
    assert response.status_code == 201
    assert (response.json()["formula_id"], response.json()["rank"]) == (formula.pk, 2)


def test_malformed_json_body_is_a_json_error(client):
    response = client.post("/api/feedback", "{not json", content_type="application/json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_json")


@pytest.mark.parametrize("replace, value, field", [
    pytest.param('"formula_id": 1', '"formula_id": Infinity', "formula_id", id="id-infinity"),
    pytest.param('"formula_id": 1', '"formula_id": NaN', "formula_id", id="id-nan"),
    pytest.param('"formula_id": 1', '"formula_id": 1e400', "formula_id", id="id-overflowing-float"),
    pytest.param('"query": "x"', '"query": "x\\ud800"', "query", id="query-with-a-lone-surrogate"),
])
def test_json_only_values_are_refused_naming_the_field(formula, client, replace, value, field):
    body = json.dumps({**signal(formula), "query": "x", "formula_id": 1}).replace(replace, value)
    response = client.post("/api/feedback", body, content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "invalid_parameter"
    assert response.json()["message"].startswith(field)
    assert not Feedback.objects.exists()


@pytest.mark.parametrize("body, status, code, message", [
    pytest.param("[" * 1000 + "]" * 1000, 400, "invalid_json", "nests too deeply", id="list-1000-deep"),
    pytest.param('{"a":' * 1000 + "1" + "}" * 1000, 400, "invalid_json", "nests too deeply", id="object-1000-deep"),
    pytest.param(b"\xff\xfe{\x00}\x00", 400, "invalid_json", "not UTF-8", id="utf-16"),
    pytest.param(b"\xc3(", 400, "invalid_json", "not UTF-8", id="invalid-utf-8"),
    pytest.param(b"", 400, "invalid_parameter", "query must have", id="empty"),
    pytest.param(b"x" * 3_000_000, 413, "request_too_large", "takes at most 65,536", id="3-mb"),
])
def test_unreadable_bodies_are_json_errors(client, body, status, code, message):
    response = client.post("/api/feedback", body, content_type="application/json")
    assert response.status_code == status and response.json()["code"] == code
    assert message in response.json()["message"]


def test_a_form_rank_past_the_integer_column_is_refused(formula, client):
    response = client.post("/api/feedback", {**signal(formula), "rank": str(2**31)})
    assert (response.status_code, response.json()["code"]) == (400, "invalid_parameter")
    assert client.post("/api/feedback", {**signal(formula), "rank": str(2**31 - 1)}).status_code == 201


def test_the_no_javascript_form_records_and_goes_back(formula, client):
    back = "/?q=e%5E%7Bi%5Cpi%7D"
    response = client.post("/feedback", {**signal(formula, "not_relevant"), "next": back})
    assert response.status_code == 302 and response.url == back
    assert Feedback.objects.get().kind == "not_relevant"
    assert client.post("/feedback", {**signal(formula), "next": "https://evil.example/"}).url == "/"
