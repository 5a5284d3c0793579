"""Feedback: the JSON endpoint (CSRF, rate limit, validation), the no-JS form, qrels export."""
import json
import os
import subprocess
import sys
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from searchapp.feedback.qrels import judgements, query_id
from searchapp.models import Feedback, Formula, Post
from tests.app.factories import csrf_client
from tests.conftest import REPO

pytestmark = pytest.mark.django_db


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
         " from searchapp.feedback.actions import check_rate, RateLimited\n"
         "try: check_rate(sys.argv[1])\nexcept RateLimited: print('refused')", client_key_of(client)],
        cwd=REPO, env={**os.environ, "MATHSEARCH_FEEDBACK_PER_MINUTE": "1"},  # this suite's settings, and cache
        capture_output=True, text=True, timeout=60)
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


def test_judgements_prefer_the_latest_explicit_judgement_over_clicks(formula):
    """Of two people's judgments of one formula, the later one counts."""
    other = Formula.objects.exclude(pk=formula.pk).first()
    for kind, target, person in [("click", formula, "a"), ("relevant", formula, "a"), ("not_relevant", formula, "b"),
                                 ("click", formula, "a"), ("click", other, "a")]:
        Feedback.objects.create(query="q", formula=target, kind=kind, rank=1, session_key=person)
    assert judgements() == {"q": {formula.pk: 0, other.pk: 1}}


def test_judgements_of_answers_are_not_formula_qrels(formula, tmp_path):
    from tests.app.factories import QUESTION_PAGES as PAGES
    from tests.app.factories import index_thread_pages

    index_thread_pages(tmp_path / "pages", PAGES)
    Feedback.objects.create(query="q", post=Post.objects.first(), kind="relevant", rank=1, session_key="a")
    Feedback.objects.create(query="q", formula=formula, kind="not_relevant", rank=1, session_key="a")
    assert judgements() == {"q": {formula.pk: 0}}


def test_export_qrels_writes_trec_lines_and_the_query_map(formula, tmp_path):
    other = Formula.objects.exclude(pk=formula.pk).first()
    Feedback.objects.create(query="e^{i\\pi}", formula=formula, kind="relevant", rank=1)
    Feedback.objects.create(query="e^{i\\pi}", formula=other, kind="click", rank=2)
    Feedback.objects.create(query="x^2", formula=other, kind="not_relevant", rank=1)
    out = tmp_path / "feedback.qrels"
    call_command("export_qrels", "--out", str(out), stdout=StringIO())
    lines = set(out.read_text().splitlines())
    q1, q2 = query_id("e^{i\\pi}"), query_id("x^2")
    assert lines == {f"{q1} 0 {formula.pk} 2", f"{q1} 0 {other.pk} 1", f"{q2} 0 {other.pk} 0"}
    side = dict(line.split("\t") for line in (tmp_path / "feedback.qrels.queries.tsv").read_text().splitlines())
    assert side == {q1: "e^{i\\pi}", q2: "x^2"}


def test_export_qrels_of_a_corpus_that_does_not_exist_is_an_error_not_an_empty_file(formula, tmp_path):
    out = tmp_path / "feedback.qrels"
    with pytest.raises(CommandError, match=f"no corpus named 'nope'; the corpora are {formula.corpus.name}"):
        call_command("export_qrels", "--out", str(out), "--corpus", "nope", stdout=StringIO())
    assert not out.exists()


def test_exported_qrels_parse_with_the_benchmark_reader(formula, tmp_path):
    from ml.data.qrels import parse_qrels

    Feedback.objects.create(query="a b", formula=formula, kind="relevant", rank=1)
    out = tmp_path / "q.qrels"
    call_command("export_qrels", "--out", str(out), stdout=StringIO())
    read = parse_qrels(out.read_text())
    assert (read.value, read.problems) == ({query_id("a b"): {str(formula.pk): 2}}, [])
