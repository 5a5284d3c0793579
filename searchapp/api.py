"""JSON API views: validate the request, call the search service, answer JSON (errors as {code, message, pos?})."""
from __future__ import annotations

from functools import wraps

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from ml.formula import ParseError
from ml.retrieval.fusion import FUSIONS
from searchapp.errors import ApiError, parse_error
from searchapp.presenters import results_dict
from searchapp.search import MAX_K, search_formulas

MAX_QUERY_CHARS = 5000


def json_errors(view):
    """Turn ApiError and parse errors raised by a view into JSON answers with their status."""
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except ParseError as error:
            return parse_error(error).response()
        except ApiError as error:
            return error.response()
    return wrapper


def int_param(request: HttpRequest, name: str, default: int, low: int, high: int) -> int:
    raw = request.GET.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiError("invalid_parameter", f"{name} must be an integer, got {raw!r}") from None
    if not low <= value <= high:
        raise ApiError("invalid_parameter", f"{name} must be between {low} and {high}, got {value}")
    return value


def search_params(request: HttpRequest) -> dict:
    """The validated search options of a request (shared by the API and the search page)."""
    query = request.GET.get("q", "").strip()
    if not query:
        raise ApiError("missing_query", "the query parameter q is required")
    if len(query) > MAX_QUERY_CHARS:
        raise ApiError("query_too_long", f"the query has {len(query)} characters; the limit is {MAX_QUERY_CHARS}")
    fusion = request.GET.get("fusion", "max")
    if fusion not in FUSIONS:
        raise ApiError("invalid_parameter", f"fusion must be one of {', '.join(FUSIONS)}, got {fusion!r}")
    return {"latex": query, "k": int_param(request, "k", 10, 1, MAX_K), "fusion": fusion,
            "offset": int_param(request, "offset", 0, 0, 10_000), "corpus": request.GET.get("corpus") or None}


@require_GET
@json_errors
def search(request: HttpRequest) -> JsonResponse:
    return JsonResponse(results_dict(search_formulas(**search_params(request))))
