"""More JSON API views: a formula with its posts and trees, feedback, the OpenAPI schema, CSRF failures."""
from __future__ import annotations

import json

from django.http import HttpRequest, JsonResponse
from django.views.csrf import csrf_failure as html_csrf_failure
from django.views.decorators.http import require_GET, require_POST

from searchapp.api import json_errors
from searchapp.errors import ApiError
from searchapp.feedback import client_key, parse_feedback, record_feedback
from searchapp.models import Formula
from searchapp.openapi import schema as openapi_schema
from searchapp.pages import MAX_OCCURRENCES, formula_trees, snippets_for


@require_GET
@json_errors
def formula(request: HttpRequest, pk: int) -> JsonResponse:
    found = Formula.objects.select_related("corpus").filter(pk=pk).first()
    if found is None:
        raise ApiError("not_found", f"no formula with id {pk}", status=404)
    trees = formula_trees(found.slt_string, found.latex)
    return JsonResponse({
        "id": found.pk, "latex": found.latex, "corpus": found.corpus.name, "slt_string": found.slt_string,
        "occurrences": found.occurrences.count(),
        "posts": [{"post_id": s.post_id, "title": s.title, "url": s.url, "latex": s.latex,
                   "before": s.before, "after": s.after}
                  for s in snippets_for([found.pk], MAX_OCCURRENCES).get(found.pk, [])],
        "trees": {name: None if tree is None else {"labels": tree.labels, "edges": tree.edges}
                  for name, tree in (("slt", trees["slg"]), ("opt", trees["opg"]))},
    })


@require_POST
@json_errors
def feedback(request: HttpRequest) -> JsonResponse:
    """Store a click or judgement; the body is JSON (or a form), CSRF-protected, rate-limited per session."""
    data = _json_body(request) if request.content_type == "application/json" else request.POST
    signal = parse_feedback(data)
    client = client_key(request)
    stored = record_feedback(signal, request.session.session_key, client)
    return JsonResponse({"id": stored.pk, "query": stored.query, "formula_id": stored.formula_id,
                         "kind": stored.kind, "rank": stored.rank, "fusion": stored.fusion}, status=201)


def _json_body(request: HttpRequest) -> dict:
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError) as error:
        raise ApiError("invalid_json", f"the body is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ApiError("invalid_json", "the body must be a JSON object")
    return data


@require_GET
def schema(request: HttpRequest) -> JsonResponse:
    return JsonResponse(openapi_schema(request.build_absolute_uri("/")))


def csrf_failure(request: HttpRequest, reason: str = "") -> JsonResponse:
    """API clients get the JSON error shape; pages keep Django's explanatory HTML."""
    if request.path.startswith("/api/"):
        return ApiError("csrf_failed", f"CSRF verification failed: {reason}", status=403).response()
    return html_csrf_failure(request, reason=reason)
