"""JSON API views: validate the request, call the domain, answer JSON (errors as {code, message, pos?})."""
from __future__ import annotations

from dataclasses import asdict
from functools import wraps

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.csrf import csrf_failure as html_csrf_failure
from django.views.decorators.csrf import csrf_exempt

from mathparse.unicode_math import from_unicode
from searchapp.errors import ApiError
from searchapp.feedback.actions import explained, parse_feedback, parse_looks, record_feedback
from searchapp.feedback.impressions import record_looks
from searchapp.feedback.people import Person, client_address
from searchapp.live.serving import served_search
from searchapp.models import Formula, Post
from searchapp.web.api_bodies import json_body, json_params
from searchapp.web.error_views import is_api
from searchapp.web.openapi import schema as openapi_schema
from searchapp.web.params import QUESTION_FIELDS, SEARCH_FIELDS, query_param, question_params, search_params
from searchapp.web.presenters import (
    corpora_of,
    formula_detail,
    post_formulas,
    post_results_dict,
    present,
    question_of,
    results_dict,
)


def api_view(*methods: str, reads_only: bool | None = None):
    """Answer only `methods` (any other is a JSON 405 naming them, where Django's require_http_methods answers an empty
    body), and turn the ApiErrors a view raises into JSON answers with their status. Bodies Django refuses to read
    are searchapp.web.error_views's.

    A view that only reads (GET, or a search POSTed for its long query: `reads_only`) is CSRF-exempt: the check
    guards nothing there, would answer a wrong method with a 403, and would ask API clients for a token.
    """
    exempt = set(methods) <= {"GET", "HEAD"} if reads_only is None else reads_only

    def decorate(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method not in methods:
                refusal = ApiError("method_not_allowed", f"{request.method} is not allowed here; use {', '.join(methods)}",
                                   status=405).response()
                refusal["Allow"] = ", ".join(methods)
                return refusal
            try:
                return view(request, *args, **kwargs)
            except ApiError as error:
                return error.response()
        return csrf_exempt(wrapper) if exempt else wrapper
    return decorate


@api_view("GET", "POST", reads_only=True)
def search(request: HttpRequest) -> JsonResponse:
    """Formula search: the parameters as a query string (GET) or a JSON object (POST, for a long query)."""
    params = search_params(json_params(request, SEARCH_FIELDS) if request.method == "POST" else request.GET)
    served = served_search(params.pop("text"), Person.of(request), **params)
    return JsonResponse({**results_dict(served.results, present(served.results)),
                         "impression_id": served.impression and served.impression.pk})


@api_view("GET", "POST", reads_only=True)
def posts(request: HttpRequest) -> JsonResponse:
    """Question search: answers ranked for a question written as text with `$…$` formulas (GET, or POST JSON)."""
    params = question_params(json_params(request, QUESTION_FIELDS) if request.method == "POST" else request.GET)
    posts = Post.objects.tagged(params.pop("tag"))
    return JsonResponse(post_results_dict(posts.search(params.pop("question"), **params)))


@api_view("GET")
def formula(request: HttpRequest, pk: int) -> JsonResponse:
    found = Formula.objects.select_related("corpus").filter(pk=pk).first()
    if found is None:
        raise ApiError("not_found", f"no formula with id {pk}", status=404)
    detail = formula_detail(found)
    return JsonResponse({
        "id": found.pk, "latex": found.latex, "notation": found.notation, "corpus": found.corpus.name,
        "slt_string": found.slt_string, "occurrences": detail.occurrence_count,
        "also_in": corpora_of(detail.elsewhere),
        "posts": [asdict(snippet) for snippet in detail.snippets],
        "trees": {name: None if tree is None else {"labels": tree.labels, "edges": tree.edges}
                  for name, tree in detail.trees.items()},
    })


@api_view("GET")
def post(request: HttpRequest, pk: int) -> JsonResponse:
    """One post as its page shows it: text, question or answers, formulas (each once, with its count), related."""
    found = Post.objects.for_page().filter(pk=pk).first()
    if found is None:
        raise ApiError("not_found", f"no post with id {pk}", status=404)
    return JsonResponse({
        "id": found.pk, "source_id": found.source_id, "corpus": found.corpus.name, "title": found.title,
        "body": found.body, "url": found.url, "tags": found.tags, "question": question_of(found),
        "answers": [{"id": answer.pk, "url": answer.url} for answer in found.answers.all()],
        "formulas": [asdict(formula) for formula in post_formulas(found)],
        "also_in": corpora_of(Post.objects.copies_of(found)),
        "related": [{"id": other.pk, "title": other.title} for other in Post.objects.related_to(found)],
    })


@api_view("POST")
def feedback(request: HttpRequest) -> JsonResponse:
    """Store a click or a judgment, or take a judgment back; the body is JSON (or a form), CSRF-protected,
    rate-limited per session. 201 for a new row; 200 for a judgment replaced or taken back (`id` null). Its
    `explanation` is what people now say of the result, which the page shows in place."""
    data = json_body(request) if request.content_type == "application/json" else request.POST
    address = client_address(request)  # first: it gives a cookieless client its session key
    signal = parse_feedback(data)
    stored, created = record_feedback(signal, Person.of(request), address)
    return JsonResponse({"id": stored and stored.pk, "query": signal.query, "formula_id": signal.formula_id,
                         "post_id": signal.post_id, "kind": signal.kind, "rank": signal.rank,
                         "fusion": signal.fusion, "impression_id": signal.impression_id,
                         "explanation": explained(signal)},
                        status=201 if created else 200)


@api_view("POST")
def looks(request: HttpRequest) -> HttpResponse:
    """The results of a page its person saw: the results page's beacon (a form carrying the CSRF token, as
    navigator.sendBeacon sends it) or an API client's JSON. CSRF-protected and rate-limited as feedback; 204."""
    data = json_body(request) if request.content_type == "application/json" else request.POST
    address = client_address(request)
    impression_id, formula_ids = parse_looks(data)
    record_looks(impression_id, Person.of(request), address, formula_ids)
    return HttpResponse(status=204)


@api_view("GET")
def latex(request: HttpRequest) -> JsonResponse:
    """The LaTeX a query's Unicode math is read as (`mathparse.unicode_math`), as the search reads it: the search
    page's formula editor shows a query pasted as `x² + y² = z²` so, where MathLive would draw a caret."""
    return JsonResponse({"latex": from_unicode(query_param(request.GET)).latex})


@api_view("GET")
def docs(request: HttpRequest) -> HttpResponse:
    """The schema for people: Swagger UI draws it (scripts/setup.sh vendors it, so the site's CSP holds unchanged)."""
    return render(request, "searchapp/api_docs.html")


@api_view("GET")
def schema(request: HttpRequest) -> JsonResponse:
    return JsonResponse(openapi_schema(request.build_absolute_uri("/")))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """API clients get the JSON error shape; pages keep Django's explanatory HTML."""
    if is_api(request):
        return ApiError("csrf_failed", f"CSRF verification failed: {reason}", status=403).response()
    return html_csrf_failure(request, reason=reason)
