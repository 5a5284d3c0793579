"""Impressions: each page of formula results logged as it is served (one INSERT, ~1 ms), and what a person then saw
of it, so that clicks can be read against what was seen (position bias, `searchapp.learning.clicks`), who placed it
(interleaving, `searchapp.live.serving`) and who looked (`searchapp.search.looks`).

A page served counts nothing by itself: an API response, a crawler's fetch or a script's reload is not a look. What
counts is what the person's page reports having shown (`record_looks`: the results page's beacon for each result
that was on screen for about a second, or its first NOSCRIPT_LOOKS results when the browser runs no JavaScript),
and the results down to one they clicked (`look_down_to`). The same query searched again by the same person within REPEAT_SECONDS,
showing the same list (a reload, paging back and forth), is the same page: its looks and clicks count once.
"""
from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from searchapp.errors import ApiError
from searchapp.feedback.people import Person, check_sender
from searchapp.models import Impression
from searchapp.search.query_keys import searched_key
from searchapp.search.results import SearchResults

REPEAT_SECONDS = 30 * 60
"""A person's repeat of a page within this long is that page again: a session of searching, as web analytics
counts one."""
NOSCRIPT_LOOKS = 3
"""The results a page counts as seen when the browser runs no JavaScript (it loads the page's `<noscript>` image):
the first few, which stand on screen whatever its size; below them it cannot tell how far the person read."""


def log_impression(results: SearchResults, query: str, corpus: str | None, offset: int, person: Person,
                   candidate: str = "") -> Impression | None:
    """Record the page `results` served for `query` (as the person typed it, the text their clicks carry), or find
    the same page the person was served within REPEAT_SECONDS; None when it showed nothing (no click can follow),
    and for a crawler. `candidate` names the ranker under test of an interleaved page."""
    if not results.hits or person.crawler:
        return None
    page = {"corpus_id": results.hits[0].formula.corpus_id if corpus else None, "query": query,
            "query_key": searched_key(results.query.graphs), "formula_ids": [hit.formula_id for hit in results.hits],
            "offset": offset, "teams": results.teams, "candidate": candidate if results.teams else ""}
    if person.known:
        since = timezone.now() - datetime.timedelta(seconds=REPEAT_SECONDS)
        repeat = Impression.objects.of_person(person.user_id, person.session_key).filter(
            **page, created_at__gte=since).order_by("-id").first()
        if repeat is not None:
            return repeat
    return Impression.objects.create(**page, user_id=person.user_id, session_key=person.session_key)


def record_looks(impression_id: int, person: Person, address: str, formula_ids: list[int] | None = None) -> None:
    """Count the results of the person's page `impression_id` that they saw: `formula_ids` (those not on the page are
    ignored), or with None its first NOSCRIPT_LOOKS. Rate-limited as feedback is; a crawler's are dropped."""
    if person.crawler:
        return
    check_sender(person, address)
    with transaction.atomic():
        page = own_page(impression_id, person, lock=True)
        _add_seen(page, page.formula_ids[:NOSCRIPT_LOOKS] if formula_ids is None else formula_ids)


def look_down_to(page: Impression, formula_id: int) -> None:
    """A click on `formula_id` of the person's `page` (checked by the caller, `own_page`): every result down to it
    was seen, since the person read down to it."""
    with transaction.atomic():
        locked = Impression.objects.select_for_update().get(pk=page.pk)
        _add_seen(locked, locked.formula_ids[:locked.formula_ids.index(formula_id) + 1])


def _add_seen(page: Impression, formula_ids: list[int]) -> None:
    """Add `formula_ids` to what the locked `page` counts as seen, in page order, each once."""
    wanted = set(formula_ids) | set(page.seen)
    seen = [formula for formula in page.formula_ids if formula in wanted]
    if seen != page.seen:
        Impression.objects.filter(pk=page.pk).update(seen=seen)


def own_page(impression_id: int, person: Person, lock: bool = False) -> Impression:
    """The impression `impression_id`, once it is the person's: served to them, or to no one (an API client without
    a session, whose first signal names it) and now theirs. A 404 if there is none, a 403 if it is someone else's:
    one person's signals must not count on another's page."""
    pages = Impression.objects.select_for_update() if lock else Impression.objects
    page = pages.filter(pk=impression_id).first()
    if page is None:
        raise ApiError("not_found", f"no impression with id {impression_id}", status=404)
    if page.user_id is None and not page.session_key and person.known:
        claimed = Impression.objects.filter(pk=page.pk, user__isnull=True, session_key="").update(
            user_id=person.user_id, session_key=person.session_key)
        if claimed:
            page.user_id, page.session_key = person.user_id, person.session_key
    mine = page.user_id == person.user_id if person.user_id is not None else (
        page.user_id is None and page.session_key == person.session_key != "")
    if not mine:
        raise ApiError("not_yours", f"impression {impression_id} was served to someone else", status=403)
    return page
