"""Relevance feedback actions: validate and store a click or judgement, rate-limited per session and address."""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from searchapp.errors import ApiError, check_text, shown
from searchapp.models import Feedback, Formula
from searchapp.search.query import MAX_QUERY_CHARS
from searchapp.search.ranking import DEFAULT_ORDER, ORDERS

RATE_WINDOW_SECONDS = 60
ADDRESS_SHARE = 10
"""One address may send this many sessions' worth of signals: people behind one NAT do not throttle each other,
and a client that drops its cookie to get a fresh session does not get a fresh limit."""
MAX_RANK = 2**31 - 1
"""Feedback.rank is a Postgres integer."""
MAX_FORMULA_ID = 2**63 - 1
"""Formula ids are Postgres bigints."""


class RateLimited(ApiError):
    status = 429

    def __init__(self, limit: int, window: int):
        super().__init__("rate_limited", f"at most {limit} feedback signals per {window} s; try again shortly")
        self.limit, self.window = limit, window


@dataclass(frozen=True)
class FeedbackInput:
    query: str
    formula_id: int
    kind: str
    rank: int
    fusion: str = DEFAULT_ORDER


def parse_feedback(data) -> FeedbackInput:
    """Validated feedback fields from a JSON object or a form's QueryDict; a value of the wrong type is refused, never
    converted (`"formula_id": 1.5` is not formula 1, `"query": ["x"]` is not the query "['x']")."""
    raw = check_text("query", _string(data, "query"))
    query = raw.strip()
    if not query or len(raw) > MAX_QUERY_CHARS:  # counted as sent, as the OpenAPI schema's maxLength counts it
        raise ApiError("invalid_parameter", f"query must have 1 to {MAX_QUERY_CHARS} characters")
    kind = data.get("kind")
    if kind not in Feedback.Kind.values:
        raise ApiError("invalid_parameter", f"kind must be one of {', '.join(Feedback.Kind.values)}, got {shown(kind)}")
    fusion = data.get("fusion") or DEFAULT_ORDER
    if fusion not in ORDERS:
        raise ApiError("invalid_parameter", f"fusion must be one of {', '.join(ORDERS)}, got {shown(fusion)}")
    return FeedbackInput(query, _positive_int(data, "formula_id", MAX_FORMULA_ID), kind,
                         _positive_int(data, "rank", MAX_RANK), fusion)


def _string(data, name: str) -> str:
    value = data.get(name)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ApiError("invalid_parameter", f"{name} must be a string, got {shown(value)}")
    return value


def _positive_int(data, name: str, high: int) -> int:
    """A JSON integer (`3.0` is one too, as JSON Schema and so our OpenAPI schema count them; `3.5` is not), or a
    form's string of digits, from 1 to `high` (its column's range)."""
    value = raw = data.get(name)
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= len(str(high)):
        value = int(raw)
    elif isinstance(raw, float) and raw.is_integer():
        value = int(raw)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        raise ApiError("invalid_parameter", f"{name} must be an integer from 1 to {high}, got {shown(raw)}")
    return value


def check_rate(client: str, share: int = 1) -> None:
    """Count one signal for `client` in the current window; raise RateLimited past `share` × the configured limit."""
    limit = settings.MATHSEARCH_FEEDBACK_PER_MINUTE * share
    key = f"feedback-rate:{client}"
    # add() only creates the counter, so the window starts at the first signal and expires with it.
    cache.add(key, 0, RATE_WINDOW_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add() and incr()
        cache.set(key, 1, RATE_WINDOW_SECONDS)
        count = 1
    if count > limit:
        raise RateLimited(limit, RATE_WINDOW_SECONDS)


def record_feedback(signal: FeedbackInput, session_key: str, address: str) -> Feedback:
    """Store one signal after the rate checks, of its session and of its address; an unknown formula is a 404."""
    check_rate(f"session:{session_key}")
    check_rate(f"address:{address}", ADDRESS_SHARE)
    if not Formula.objects.filter(pk=signal.formula_id).exists():
        raise ApiError("not_found", f"no formula with id {signal.formula_id}", status=404)
    return Feedback.objects.create(query=signal.query, formula_id=signal.formula_id, kind=signal.kind,
                                   rank=signal.rank, fusion=signal.fusion, session_key=session_key)


def client_address(request) -> str:
    """The client's address; a cookieless client is given its session here, so its session key exists too."""
    if not request.session.session_key:
        request.session.save()
    return request.META.get("REMOTE_ADDR", "")
