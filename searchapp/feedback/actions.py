"""Relevance feedback actions: validate and store a click or a judgment, rate-limited per session and address.

A click is logged as it comes; it counts only on the page it was made on, the sender's (`impression_id`). A judgment
is a person's one answer for a query's meaning (its key, which two spellings of one formula share) and a result: a
new one replaces it (relevant ↔ not relevant), and `none` takes it back. Crawlers' signals are refused."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from django.utils import timezone

from searchapp.errors import ApiError, check_text, shown
from searchapp.feedback.impressions import look_down_to, own_page
from searchapp.feedback.people import Person, check_sender
from searchapp.models import Feedback, Formula, Impression, Post
from searchapp.search.feedback_boost import evidence_for
from searchapp.search.query import MAX_QUERY_CHARS
from searchapp.search.query_keys import feedback_key
from searchapp.search.questions import DEFAULT_MODE, MODES
from searchapp.search.ranking import DEFAULT_ORDER, ORDERS

MAX_RANK = 2**31 - 1
"""Feedback.rank is a Postgres integer."""
MAX_FORMULA_ID = 2**63 - 1
"""Formula ids are Postgres bigints."""
MAX_POST_ID = 2**63 - 1
"""So are post ids."""
MAX_IMPRESSION_ID = 2**63 - 1
"""And impression ids."""
MAX_LOOKS_SENT = 100
"""Formulas one report of looks may name: a screen shows far fewer, and a page's beacon reports as they come into
view (a form of more fields than Django reads, 1,000, would be refused whole)."""
UNJUDGE = "none"
"""The kind that takes a person's judgment back: the result is judged neither way again."""
KINDS = (*Feedback.Kind.values, UNJUDGE)


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

    @property
    def result(self) -> tuple[str, int]:
        """What it is on: ("formula" | "post", its id)."""
        return ("formula", self.formula_id) if self.formula_id is not None else ("post", cast(int, self.post_id))


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


def parse_looks(data) -> tuple[int, list[int]]:
    """The page (`impression_id`) and the formulas of it that a person saw (`formula_ids`: a JSON array, or a form's
    repeated field as the page's beacon sends it), validated as feedback is."""
    form = hasattr(data, "getlist")
    page = _positive_int(data, "impression_id", MAX_IMPRESSION_ID, digits=form)
    values = data.getlist("formula_ids") if form else data.get("formula_ids")
    if not isinstance(values, list) or not 1 <= len(values) <= MAX_LOOKS_SENT:
        raise ApiError("invalid_parameter", f"formula_ids must be an array of 1 to {MAX_LOOKS_SENT} formula ids")
    return page, [_positive_int({"formula_ids": value}, "formula_ids", MAX_FORMULA_ID, digits=form) for value in values]


def _string(data, name: str) -> str:
    value = data.get(name)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ApiError("invalid_parameter", f"{name} must be a string, got {shown(value)}")
    return value


def _positive_int(data, name: str, high: int, digits: bool = True) -> int:
    """A JSON integer (`3.0` is one too, as JSON Schema and so our OpenAPI schema count them; `3.5` is not), or, with
    `digits`, a form's string of digits, from 1 to `high` (its column's range)."""
    value = raw = data.get(name)
    if digits and isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= len(str(high)):
        value = int(raw)
    elif isinstance(raw, float) and raw.is_integer():
        value = int(raw)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        raise ApiError("invalid_parameter", f"{name} must be an integer from 1 to {high}, got {shown(raw)}")
    return value


def record_feedback(signal: FeedbackInput, person: Person, address: str) -> tuple[Feedback | None, bool]:
    """Store one signal after the rate checks, of its session and of its address; an unknown formula or post is a
    404, a crawler's signal a 403. Returns the row the person now holds (None once a judgment is taken back) and
    whether it is new."""
    if person.crawler:
        raise ApiError("crawler", "signals from crawlers are not recorded", status=403)
    check_sender(person, address)
    page = _checked_page(signal, person)
    result: dict[str, Any] = {"formula_id": signal.formula_id, "post_id": signal.post_id,
                              "query_key": feedback_key(signal.query, on_formula=signal.formula_id is not None)}
    if signal.kind == Feedback.Kind.CLICK:
        if page is not None:
            look_down_to(page, cast(int, signal.formula_id))
        return Feedback.objects.create(**result, query=signal.query, kind=signal.kind, rank=signal.rank,
                                       fusion=signal.fusion, user_id=person.user_id, session_key=person.session_key,
                                       impression_id=signal.impression_id), True
    mine: dict[str, Any] = ({"user_id": person.user_id} if person.user_id is not None
                            else {"user": None, "session_key": person.session_key})
    if signal.kind == UNJUDGE:
        Feedback.objects.judgments().filter(**mine, **result).delete()
        return None, False
    # Locks the person's row, and a concurrent first judgment that wins the unique constraint is re-read and updated.
    return Feedback.objects.update_or_create(
        **mine, **result, kind__in=Feedback.JUDGMENTS,
        defaults={"query": signal.query, "kind": signal.kind, "rank": signal.rank, "fusion": signal.fusion,
                  "created_at": timezone.now(), "session_key": person.session_key})


def explained(signal: FeedbackInput) -> str:
    """What people now say of the signal's result for its query, in words ("" when nothing): a results page shows it
    in place of what it said before, without a reload (the order changes at the next search)."""
    result, pk = signal.result
    on_formula = result == "formula"
    evidence = evidence_for(Feedback.objects.filter(**{f"{result}_id": pk}), result,
                            feedback_key(signal.query, on_formula), signal.query,
                            Impression.objects if on_formula else None).get(pk)
    return evidence.explanation if evidence is not None and evidence.said else ""


def _checked_page(signal: FeedbackInput, person: Person) -> Impression | None:
    """The page a click names, once the result exists (a 404 otherwise) and the page is the sender's page of this
    query that showed the clicked formula (`own_page`): a click credited to a page that never showed it would move
    a ranker with a signal no one gave. None for a judgment, and for a click that names no page."""
    if signal.formula_id is not None and not Formula.objects.filter(pk=signal.formula_id).exists():
        raise ApiError("not_found", f"no formula with id {signal.formula_id}", status=404)
    if signal.post_id is not None and not Post.objects.filter(pk=signal.post_id).exists():
        raise ApiError("not_found", f"no post with id {signal.post_id}", status=404)
    if signal.impression_id is None or signal.kind != Feedback.Kind.CLICK:
        return None
    page = own_page(signal.impression_id, person)
    if page.query != signal.query or signal.formula_id not in page.formula_ids:
        raise ApiError("invalid_parameter", f"impression {signal.impression_id} did not show formula "
                                            f"{signal.formula_id} for this query")
    return page

