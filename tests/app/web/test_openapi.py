"""The OpenAPI document at /api/schema: valid OpenAPI 3.1, and the API answers as it says (schemathesis, in-process)."""
import re

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from openapi_spec_validator import validate
from schemathesis.specs.openapi.checks import positive_data_acceptance

from mathsearch import urls
from searchapp.models import Formula, Impression, Post
from searchapp.search.questions import MODES
from searchapp.search.ranking import ORDERS
from searchapp.web.openapi import schema
from searchapp.web.params import QUESTION_FIELDS, SEARCH_FIELDS
from tests.app.factories import EIGEN_QUESTION, index_thread_pages
from tests.app.factories import QUESTION_PAGES as PAGES

pytestmark = pytest.mark.django_db


def test_the_schema_is_valid_openapi_3_1(client):
    document = client.get("/api/schema").json()
    assert document == schema("http://testserver/")
    assert document["openapi"] == "3.1.0"
    validate(document)


def test_the_schema_describes_every_api_route():
    routes = {"/" + re.sub(r"<\w+:\w+>", "{id}", str(route.pattern)) for route in urls.urlpatterns
              if str(route.pattern).startswith("api/")}
    assert set(schema("")["paths"]) == routes


def test_every_operation_describes_its_errors():
    described = {(method, path): set(operation["responses"]) for path, operations in schema("")["paths"].items()
                 for method, operation in operations.items() if path != "/api/schema"}
    assert ("get", "/api/search") in described
    assert [operation for operation, codes in described.items() if not {"500", "503"} <= codes] == []


def test_the_bounds_are_those_the_api_enforces(client):
    """The schema's numbers come from searchapp.web.params; one past each is refused, counting a length as sent
    (schemathesis: a query one character too long was accepted when its spaces made it fit once stripped)."""
    parameters = {p["name"]: p["schema"] for p in schema("")["paths"]["/api/search"]["get"]["parameters"]}
    for name in ("k", "offset"):
        assert client.get("/api/search", {"q": "x", name: parameters[name]["maximum"] + 1}).status_code == 400
    for name in ("q", "corpus", "context"):
        too_long = " " + "x" * parameters[name]["maxLength"]
        assert client.get("/api/search", {"q": "x", name: too_long}).status_code == 400


@pytest.mark.parametrize("path, fields", [("/api/search", SEARCH_FIELDS), ("/api/posts", QUESTION_FIELDS)])
def test_a_posted_body_takes_the_fields_and_types_the_api_reads(path, fields):
    operations = schema("")["paths"][path]
    body = operations["post"]["requestBody"]["content"]["application/json"]["schema"]
    json_types = {str: "string", int: "integer"}
    assert {name: tuple(p["enum"]) if "enum" in p else p["type"] for name, p in body["properties"].items()} == {
        name: kind if isinstance(kind, tuple) else json_types[kind] for name, kind in fields.items()}
    assert body["additionalProperties"] is False and body["required"] == ["q"]
    assert [p["name"] for p in operations["get"]["parameters"]] == list(body["properties"])


API = schemathesis.openapi.from_dict(schema("http://localhost"))
CSRF = "a" * 32
SEND = {"headers": {"X-CSRFToken": CSRF}, "cookies": {"csrftoken": CSRF}}
"""A CSRF secret sent as both cookie and header, as the page's script does, so feedback requests get past the check."""


@pytest.fixture
def wsgi_app(settings):
    """The Django app in this process, as a server would call it.

    It runs inside the test's transaction, so the connection must outlive each request: Django's test client
    detaches close_old_connections the same way."""
    settings.MATHSEARCH_FEEDBACK_PER_MINUTE = 10_000
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield WSGIHandler()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def app(index_file, wsgi_app):
    """The app over a small indexed corpus."""
    index_file()
    return wsgi_app


@API.parametrize()
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_the_api_answers_as_its_schema_says(case, app):
    """Every check schemathesis has: no 5xx; status, content type, headers and body as documented; schema-invalid
    requests refused, schema-valid ones accepted; other methods answered 405."""
    # A schema cannot say which strings parse as a formula, so a schema-valid query may fairly be a 400 there.
    semantic = [positive_data_acceptance] if case.operation.path == "/api/search" else []
    case.call_and_validate(app=app, excluded_checks=semantic, **SEND)


def test_stored_data_answers_as_the_schema_says(index_file, tmp_path, wsgi_app):
    """Generated ids rarely name a stored formula, nor generated questions an answer: these requests do, so every
    success body is checked against the schema too."""
    index_file()
    index_thread_pages(tmp_path / "pages", PAGES)
    formula_ids = list(Formula.objects.values_list("pk", flat=True))
    cases = [API["/api/formulas/{id}"]["GET"].Case(path_parameters={"id": pk}) for pk in formula_ids]
    cases += [API["/api/posts/{id}"]["GET"].Case(path_parameters={"id": pk}) for pk in Post.objects.values_list("pk", flat=True)]
    cases += [API["/api/posts"]["GET"].Case(query={"q": EIGEN_QUESTION, "mode": mode}) for mode in MODES]
    cases += [API["/api/search"]["GET"].Case(query={"q": "A^{T}=A", "context": "symmetric matrix", "fusion": fusion})
              for fusion in ORDERS]
    cases += [API["/api/posts"]["POST"].Case(media_type="application/json", body={"q": EIGEN_QUESTION, "mode": mode})
              for mode in MODES]
    cases += [API["/api/search"]["POST"].Case(media_type="application/json", body={
        "q": "A^{T}=A", "context": "symmetric matrix", "fusion": fusion, "k": 5}) for fusion in ORDERS]
    answer = Post.objects.filter(parent__isnull=False).values_list("pk", flat=True).first()
    cases += [API["/api/feedback"]["POST"].Case(media_type="application/json", body={
        "query": "A^{T}=A", target: pk, "kind": kind, "rank": 1}) for target, pk in (("formula_id", formula_ids[0]),
                                                                                    ("post_id", answer))
        for kind in ("relevant", "click", "none")]  # a judgment taken back answers with a null id
    for case in cases:
        response = case.call_and_validate(app=wsgi_app, **SEND)
        assert response.status_code in (200, 201)
        assert response.json().get("results", [None]), case.operation.label  # a search that found something
    page = Impression.objects.filter(corpus__isnull=True).first()  # served to a client without a session
    seen = API["/api/looks"]["POST"].Case(media_type="application/json",
                                          body={"impression_id": page.pk, "formula_ids": page.formula_ids[:2]})
    assert seen.call_and_validate(app=wsgi_app, **SEND).status_code == 204
