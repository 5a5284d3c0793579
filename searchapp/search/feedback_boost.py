"""Queries asked again get better: what people said of a query's results reorders them, a bounded amount.

Evidence on a result, for a query (its text as searched, or anything with its normalised key,
`searchapp.search.query_keys`), counts each person once (an account, else a browser session): +1 for a "relevant"
judgment, −1 for "not relevant"; and the people who saw it without judging it (`searchapp.search.looks`), together,
by their click rate against NEUTRAL_RELEVANCE, each look weighed by how unlikely it was at its rank (inverse
propensity, `searchapp.search.propensity`), once they had MIN_LOOKS looks between them. A click counts only on the
page its person saw (an API client sends the page's `impression_id` with it): a click sent alone, a page served to
an API client, a crawler or a script that never showed it to anyone count nothing. No result moves down until
MIN_PEOPLE_DOWN different people said so, by passing it over or judging it not relevant.

Feedback changes the order, never a score: the hits keep the engine's similarity, the same for the same query and
index, and say how many places people moved them (`with_places`). The order is by

    s + β · (s₁ − s₃₀) · tanh(E / EVIDENCE_SCALE)

where s₁ − s₃₀ is the spread between the query's best and REACH-th best candidate scores and β the setting
MATHSEARCH_FEEDBACK_BOOST (1.0). The spread makes one bound for every order, whatever its scale (learned ranker
scores are unbounded, cosines lie in [−1, 1], BM25 in neither). The bound: a result moves past only results scoring
less than β·(s₁ − s₃₀) above it. So, at β = 1, a result near rank REACH that several people judged relevant can
reach the top ten when the query is asked again (three judgments give tanh(1.5) = 0.91 of the spread), while one
person (|E| ≤ 1: tanh(0.5) = 0.46 of it) moves it only about half the way from rank 30. However many people chose
it, a result at rank 900 passes only the results scoring within one top-30 spread above it. An exact match of the
query (its visual key) is never moved below a result that stood below it (`settled`); a pattern's exact matches come
first anyway. A result without evidence keeps its place; a query without evidence costs one indexed lookup.

Measured offline on the 29 ARQMath-1 development topics, their judged pools ranked by LaTeX tf-idf, with clicks drawn
from a position-based model: re-asked, P′@10 went from 0.455 to 0.538 after 17 sessions a topic and to 0.569 after
68 (MAP′ 0.473 to 0.510 and 0.530). EVIDENCE_SCALE from 1 to 3 gave +0.07 to +0.11; β = 0.5 gave +0.06 and β = 2
+0.10 at 17 sessions. What people never see cannot rise: `searchapp.search.exploration` shows it to them.
"""
from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from django.conf import settings
from django.db.models import Q

from ml.ranking.click_model import ipw_relevance
from searchapp.search.looks import Look, Who, people_looks
from searchapp.search.propensity import current_propensities

REACH = 30
"""The rank whose score, taken from the best, is the spread a full boost spans: a second or third page of results."""
EVIDENCE_SCALE = 2.0
"""People's worth of evidence for about three quarters of the full boost (tanh(2/2) = 0.76)."""
MIN_SPREAD = 1e-6
"""When the top scores tie, evidence still orders them."""
PAGES_READ = 1000
"""A query's latest logged pages read for what people saw and chose: a popular query's picture, at a bounded cost."""
NEUTRAL_RELEVANCE = 0.2
"""The IPW click rate (clicks per look) that moves a result neither way: below it, people who looked at it passed it
over (the learning loop grades such a result 0 too, `searchapp.learning.clicks.GRADE_CUTS`)."""
SHOWN_SCALE = 8.0
"""People's worth of evidence per unit of IPW click rate above or below NEUTRAL_RELEVANCE: a result everyone who
looked chose weighs 8 × 0.8 = 6.4 (as six "relevant" judgments), one nobody chose −1.6."""
MIN_LOOKS = 3.0
"""Examination mass (Σ θ over the people who saw a result, the looks it likely had) from which their click rate
counts: one person's look, or three people's deep down, must not reshuffle a query's results."""
FULL_LOOKS = 10.0
"""Looks from which the click rate counts fully; between MIN_LOOKS and this, in proportion."""
MIN_PEOPLE_DOWN = 3
"""Different people who passed a result over or judged it not relevant before it may move down: one person, or
one script, never sinks a result for everyone."""
CLICK, RELEVANT, NOT_RELEVANT = "click", "relevant", "not_relevant"
"""The kinds of feedback read (`Feedback.Kind`); a row of any other kind says nothing of relevance."""


@dataclass(frozen=True)
class Evidence:
    """What people said of one result for one query, each person once."""
    relevant: int = 0
    """People whose judgment is "relevant"."""
    not_relevant: int = 0
    clicked: int = 0
    """People who chose it from the results they saw, and judged it neither way."""
    passed: int = 0
    """People who saw it, did not choose it, and judged it neither way."""
    looks: float = 0.0
    """How many times it was likely looked at (Σ θ of each person's rank): below MIN_LOOKS the click rate weighs
    nothing yet, and exploration may show it (`searchapp.search.exploration`)."""
    weight: float = 0.0
    """The evidence E: +1 and −1 per judgment, and the click rate of the others (`tally`); never below 0 until
    MIN_PEOPLE_DOWN people said so."""
    moved: int = 0
    """Places its evidence moved it up (negative: down) in this search's order, against the order without feedback."""

    @property
    def said(self) -> bool:
        """Whether anyone said anything of it yet: a result only seen, by too few to count, has no say."""
        return bool(self.relevant or self.not_relevant or self.clicked or self.weight)

    @property
    def headline(self) -> str:
        """How far it moved: "Moved up 3 places", "Moved down 1 place", or "People said" when it did not move."""
        if not self.moved:
            return "People said"
        places = abs(self.moved)
        return f"Moved {'up' if self.moved > 0 else 'down'} {places} place{'' if places == 1 else 's'}"

    @property
    def explanation(self) -> str:
        """In words: who found it relevant, and who not (what weighed most first). A click counts as finding it
        relevant, and says so."""
        found, chose = self.relevant + self.clicked, self.clicked
        relevant = (f"{_people(found)} found this relevant" + (
            "" if not chose else f" ({self.relevant} said so, {chose} chose it from the results)" if self.relevant
            else ", choosing it from the results")) if found else ""
        not_relevant = f"{_people(self.not_relevant)} found this not relevant" if self.not_relevant else ""
        passed = f"{_people(self.passed)} passed it over" if self.weight < 0 and self.passed else ""
        said = [not_relevant, passed, relevant] if self.weight < 0 else [relevant, not_relevant]
        return "; ".join(part for part in said if part)


def evidence_for(feedback, result: str, key: str, text: str, impressions=None) -> dict[int, Evidence]:
    """{result id: its evidence} for a query from the `feedback` rows (Feedback's manager) on results of kind `result`
    ("formula" or "post"): those of the query's key, or of its text as searched (alone for a query without a key,
    such as a stored formula's); with what the pages of the key that people saw, logged in `impressions`
    (Impression's manager), say (`shown_evidence`). One indexed lookup each."""
    wanted = Q(query=text) | Q(query_key=key) if key else Q(query=text)
    rows = list(feedback.filter(wanted, kind__in=[CLICK, RELEVANT, NOT_RELEVANT], **{f"{result}__isnull": False})
                .order_by("-created_at", "-id")
                .values_list(f"{result}_id", "user_id", "session_key", "kind", "impression_id"))
    chosen = {(page, found) for found, _, _, kind, page in rows if kind == CLICK and page is not None}
    shown = shown_evidence(impressions, key, chosen) if impressions is not None and key else {}
    return tally([(found, user, session, kind) for found, user, session, kind, _ in rows if kind != CLICK], shown)


def shown_evidence(impressions, key: str, chosen: set[tuple[int, int]]) -> dict[int, dict[Who, Look]]:
    """{formula id: {person: their look}} over the latest PAGES_READ pages of the query's `key` that people saw
    something of, `chosen` the (page, formula) clicks on them (`searchapp.search.looks`)."""
    pages = impressions.looked_at().filter(query_key=key).order_by("-id").values_list(
        "pk", "formula_ids", "offset", "seen", "user_id", "session_key")[:PAGES_READ]
    looks = people_looks(((pk, key, formulas, offset, seen, user, session)
                          for pk, formulas, offset, seen, user, session in pages), chosen)
    return {formula: people for (_, formula), people in looks.items()}


def tally(judgments: Iterable[tuple[int, int | None, str, str]],
          shown: dict[int, dict[Who, Look]]) -> dict[int, Evidence]:
    """Evidence per result from (result id, user id, session key, kind) judgment rows, latest first, and the looks
    people had of each (`shown`). A person (the user, else the session) counts once per result: by their latest
    judgment, else by their look. The looks of those who did not judge it weigh by their IPW click rate against
    NEUTRAL_RELEVANCE, in people's worth, once they add up to MIN_LOOKS (0 before). So results people looked at and
    passed over go down, and those they chose, however low, go up; but nothing goes down before MIN_PEOPLE_DOWN
    people said so."""
    judged: dict[tuple[int, Who], str] = {}
    for result, user, session, kind in judgments:
        if kind in (RELEVANT, NOT_RELEVANT):
            judged.setdefault((result, ("user", user) if user is not None else ("session", session)), kind)
    found: dict[int, Evidence] = {}
    for (result, _), kind in judged.items():
        before = found.get(result, Evidence())
        if kind == RELEVANT:
            found[result] = replace(before, relevant=before.relevant + 1, weight=before.weight + 1)
        else:
            found[result] = replace(before, not_relevant=before.not_relevant + 1, weight=before.weight - 1)
    propensities = current_propensities()
    for result, people in shown.items():
        others = [look for who, look in people.items() if (result, who) not in judged]
        rate, looks = ipw_relevance([look.rank for look in others], [look.clicked for look in others], propensities)
        counted = min(looks / FULL_LOOKS, 1.0) * SHOWN_SCALE * (rate - NEUTRAL_RELEVANCE) if looks >= MIN_LOOKS else 0.0
        clicked = sum(look.clicked for look in others)
        before = found.get(result, Evidence())
        found[result] = replace(before, clicked=clicked, passed=len(others) - clicked, weight=before.weight + counted,
                                looks=sum(propensities.at(look.rank) for look in people.values()))
    return {result: replace(evidence, weight=0.0) if evidence.weight < 0 and
            evidence.not_relevant + evidence.passed < MIN_PEOPLE_DOWN else evidence
            for result, evidence in found.items()}


def boosted(scores: np.ndarray, ids: list[int], evidence: dict[int, Evidence],
            strength: float | None = None) -> tuple[np.ndarray, dict[int, Evidence]]:
    """What the candidates (rows of `ids`) are ordered by: their `scores` with each one's evidence added (module
    docstring), and the evidence of the candidates that have some say (`Evidence.said`), by candidate index. The
    scores shown stay `scores`. Unchanged without evidence."""
    if not evidence or not len(scores):
        return scores, {}
    beta = settings.MATHSEARCH_FEEDBACK_BOOST if strength is None else strength
    finite = scores[np.isfinite(scores)]
    reach = min(REACH, len(finite))
    spread = float(finite.max() - np.partition(finite, len(finite) - reach)[len(finite) - reach]) if reach else 0.0
    ordered = scores.astype(np.float64, copy=True)
    found = {}
    for i, result in enumerate(ids):
        if result in evidence and evidence[result].said:
            ordered[i] += beta * max(spread, MIN_SPREAD) * math.tanh(evidence[result].weight / EVIDENCE_SCALE)
            found[i] = evidence[result]
    return ordered, found


def settled(unmoved: list[int], moved: list[int], keys: Sequence[Hashable], exact: str) -> list[int]:
    """`moved`, the distinct candidates' order with feedback, with the exact match of the query (the candidate whose
    key is `exact`) lifted above every result that stood below it in `unmoved`, the order without: feedback reorders
    the others around an exact match, and never moves it below one that is not."""
    place = next((p for p, i in enumerate(moved) if keys[i] == exact), None) if exact else None
    if place is None:
        return moved
    before = {keys[i]: p for p, i in enumerate(unmoved)}
    below = before[exact]
    passer = next((p for p, i in enumerate(moved[:place]) if before[keys[i]] > below), None)
    if passer is None:
        return moved
    return moved[:passer] + [moved[place]] + moved[passer:place] + moved[place + 1:]


def with_places(found: dict[int, Evidence], unmoved: list[int], final: list[int],
                keys: Sequence[Hashable]) -> dict[int, Evidence]:
    """The evidence of candidates (by index) with how many places feedback moved each: its place in `unmoved`, the
    distinct candidates' order without feedback, less its place in `final` (copies share their key's place), when
    its own evidence moved it that way; a result only passed by others that rose, or passing others that sank, moved
    0 of its own."""
    if not found:
        return found
    before = {keys[i]: p for p, i in enumerate(unmoved)}
    after = {keys[i]: p for p, i in enumerate(final)}
    placed = {}
    for i, evidence in found.items():
        moved = before[keys[i]] - after[keys[i]]
        placed[i] = replace(evidence, moved=moved if moved * evidence.weight > 0 else 0)
    return placed


def _people(count: int) -> str:
    return f"{count} person" if count == 1 else f"{count} people"
