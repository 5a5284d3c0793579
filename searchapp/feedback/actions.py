"""Relevance feedback actions: validate and store a click or a judgment, rate-limited per session and address.

A click is logged as it comes. A judgment is a person's one answer for a query and result: a new one replaces it
(relevant ↔ not relevant), and `none` takes it back."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from searchapp.client_ip import client_ip
from searchapp.errors import ApiError, check_text, shown
from searchapp.models import Feedback, Formula, Impression, Post
from searchapp.search.query import MAX_QUERY_CHARS
from searchapp.search.questions import DEFAULT_MODE, MODES
from searchapp.search.ranking import DEFAULT_ORDER, ORDERS

RATE_WINDOW_SECONDS = 60
ADDRESS_SHARE = 10
"""One address may send this many sessions' worth of signals: people behind one NAT do not throttle each other,
and a client that drops its cookie to get a fresh session does not get a fresh limit."""
MAX_RANK = 2**31 - 1
"""Feedback.rank is a Postgres integer."""
MAX_FORMULA_ID = 2**63 - 1
"""Formula ids are Postgres bigints."""
MAX_POST_ID = 2**63 - 1
"""So are post ids."""
MAX_IMPRESSION_ID = 2**63 - 1
"""And impression ids."""
UNJUDGE = "none"
"""The kind that takes a person's judgment back: the result is judged neither way again."""
KINDS = (*Feedback.Kind.values, UNJUDGE)


class RateLimited(ApiError):
    status = 429

    def __init__(self, limit: int, window: int):
        super().__init__("rate_limited", f"at most {limit} feedback signals per {window} s; try again shortly")
        self.limit, self.window = limit, window


@dataclass(frozen=True)
class FeedbackInput:
    """One signal on one result: a formula (`formula_id`) or an answer (`post_id`), never both."""
    query: str
    kind: str
    rank: int
    fusion: str = DEFAULT_ORDER
    formula_id: int | None = None
    post_id: int | None = None
    impression_id: int | None = None
    """A click's results page (`Impression`), when the client names it: what lets the click be read against what
    was shown, and credited to the ranker that placed the result."""


@dataclass(frozen=True)
class Person:
    """Who judges: the logged-in user wherever they are, else the browser session."""
    user_id: int | None
    session_key: str

    @classmethod
    def of(cls, request, lasting: bool = False) -> Person:
        """`lasting`: a visitor without a session is given one first, so that the results shown to them, their
        clicks on them and their next pages are one person's (the results page asks; API calls do not)."""
        if lasting and not request.session.session_key:
            request.session.save()
        user = getattr(request, "user", None)
        return cls(user.pk if user is not None and user.is_authenticated else None, request.session.session_key or "")


def parse_feedback(data) -> FeedbackInput:
    """Validated feedback fields from a JSON object or a form's QueryDict; a value of the wrong type is refused, never
    converted (`"formula_id": 1.5` is not formula 1, `"query": ["x"]` is not the query "['x']"). `fusion` is what
    ordered the results: a formula search's order, or a question search's mode for an answer."""
    raw = check_text("query", _string(data, "query"))
    query = raw.strip()
    if not query or len(raw) > MAX_QUERY_CHARS:  # counted as sent, as the OpenAPI schema's maxLength counts it
        raise ApiError("invalid_parameter", f"query must have 1 to {MAX_QUERY_CHARS} characters")
    kind = data.get("kind")
    if kind not in KINDS:
        raise ApiError("invalid_parameter", f"kind must be one of {', '.join(KINDS)}, got {shown(kind)}")
    on_post = "post_id" in data
    if ("formula_id" in data) == on_post:
        raise ApiError("invalid_parameter", "give either formula_id or post_id: the formula or the answer judged")
    choices, default = (MODES, DEFAULT_MODE) if on_post else (ORDERS, DEFAULT_ORDER)
    fusion = data.get("fusion") or default
    if fusion not in choices:
        raise ApiError("invalid_parameter", f"fusion must be one of {', '.join(choices)}, got {shown(fusion)}")
    target = ({"post_id": _positive_int(data, "post_id", MAX_POST_ID)} if on_post
              else {"formula_id": _positive_int(data, "formula_id", MAX_FORMULA_ID)})
    if data.get("impression_id") not in (None, ""):
        if on_post:
            raise ApiError("invalid_parameter", "impression_id names a page of formula results; an answer has none")
        target["impression_id"] = _positive_int(data, "impression_id", MAX_IMPRESSION_ID)
    return FeedbackInput(query, kind, _positive_int(data, "rank", MAX_RANK), fusion, **target)


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


def record_feedback(signal: FeedbackInput, person: Person, address: str) -> tuple[Feedback | None, bool]:
    """Store one signal after the rate checks, of its session and of its address; an unknown formula or post is a
    404. Returns the row the person now holds (None once a judgment is taken back) and whether it is new."""
    check_rate(f"session:{person.session_key}")
    check_rate(f"address:{address}", ADDRESS_SHARE)
    _check_exists(signal)
    result: dict[str, Any] = {"query": signal.query, "formula_id": signal.formula_id, "post_id": signal.post_id}
    if signal.kind == Feedback.Kind.CLICK:
        return Feedback.objects.create(**result, kind=signal.kind, rank=signal.rank, fusion=signal.fusion,
                                       user_id=person.user_id, session_key=person.session_key,
                                       impression_id=signal.impression_id), True
    mine: dict[str, Any] = ({"user_id": person.user_id} if person.user_id is not None
                            else {"user": None, "session_key": person.session_key})
    if signal.kind == UNJUDGE:
        Feedback.objects.judgments().filter(**mine, **result).delete()
        return None, False
    # Locks the person's row, and a concurrent first judgment that wins the unique constraint is re-read and updated.
    return Feedback.objects.update_or_create(
        **mine, **result, kind__in=Feedback.JUDGMENTS,
        defaults={"kind": signal.kind, "rank": signal.rank, "fusion": signal.fusion, "created_at": timezone.now(),
                  "session_key": person.session_key})


def _check_exists(signal: FeedbackInput) -> None:
    if signal.formula_id is not None and not Formula.objects.filter(pk=signal.formula_id).exists():
        raise ApiError("not_found", f"no formula with id {signal.formula_id}", status=404)
    if signal.post_id is not None and not Post.objects.filter(pk=signal.post_id).exists():
        raise ApiError("not_found", f"no post with id {signal.post_id}", status=404)
    if signal.impression_id is not None and signal.kind == Feedback.Kind.CLICK:
        _check_shown(signal, signal.impression_id)


def _check_shown(signal: FeedbackInput, impression_id: int) -> None:
    """A click's impression must be a page of this query that showed the clicked formula: a click credited to a
    page that never showed it would move a ranker with a signal no one gave."""
    page = Impression.objects.filter(pk=impression_id).values_list("query", "formula_ids").first()
    if page is None:
        raise ApiError("not_found", f"no impression with id {signal.impression_id}", status=404)
    if page[0] != signal.query or signal.formula_id not in page[1]:
        raise ApiError("invalid_parameter", f"impression {signal.impression_id} did not show formula "
                                            f"{signal.formula_id} for this query")


def client_address(request) -> str:
    """The client's address (`client_ip`, as the login lockout counts it); a cookieless client is given its session
    here, so its session key exists too."""
    if not request.session.session_key:
        request.session.save()
    return client_ip(request)
