"""Queries asked again get better: what people said of a query's results moves those results, a bounded amount.

Evidence on a result, for a query (its text as searched, or anything with its normalised key,
`searchapp.search.query_keys`), sums one term per person: +1 for a "relevant" judgment, −1 for "not relevant", and
for a person who clicked the result without judging it, a weaker +CLICK_WEIGHT / propensity(rank), the click
weighed by how unlikely a look at its rank was (`searchapp.search.propensity`), at most MAX_CLICK_WEIGHT. A person's
judgment is what they mean, so it replaces their clicks; a person's clicks count once, at their deepest rank (where
the click said most, and so the weight does not shrink as the result rises because of it).

The score of a result with evidence E becomes

    s + β · (s₁ − s₃₀) · tanh(E / EVIDENCE_SCALE)

where s₁ − s₃₀ is the spread between the query's best and REACH-th best candidate scores and β the setting
MATHSEARCH_FEEDBACK_BOOST (1.0). The spread makes one bound for every order, whatever its scale (learned ranker
scores are unbounded, cosines lie in [−1, 1], BM25 in neither). The bound: a result moves past only results scoring
less than β·(s₁ − s₃₀) above it. So, at β = 1, a result near rank REACH that several people judged or clicked can
reach the top ten when the query is asked again (three judgments give tanh(1.5) = 0.91 of the spread), while one
person (|E| ≤ 1: tanh(0.5) = 0.46 of it) moves it only about half the way from rank 30. However many people clicked
it, a result at rank 900 passes only the results scoring within one top-30 spread above it: it reaches the first page
only if the scores fall less from rank 20 to rank 900 than from rank 1 to rank 30. A result without evidence keeps
its score; a query without evidence costs one indexed lookup.

Measured offline on the 29 ARQMath-1 development topics, their judged pools ranked by LaTeX tf-idf, with clicks drawn
from a position-based model (examination 1/rank over 20 results shown; a click on an examined result with
probability 0.05, 0.2, 0.5, 0.8 for grades 0–3): re-asked, P′@10 went from 0.455 to 0.538 after 17 sessions a topic
and to 0.569 after 68 (MAP′ 0.473 to 0.510 and 0.530). EVIDENCE_SCALE from 1 to 3, CLICK_WEIGHT 0.1 or 0.2 and
MAX_CLICK_WEIGHT 0.5 or 0.8 all gave +0.07 to +0.11; β = 0.5 gave +0.06 and β = 2 +0.10 at 17 sessions. With only
10 results shown nothing below them is ever clicked, and P′@10 stays 0.455: what people never see cannot rise.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

import numpy as np
from django.conf import settings
from django.db.models import Q

from ml.ranking.click_model import ipw_relevance, page_results
from searchapp.search.propensity import current_propensities, examination_propensity

REACH = 30
"""The rank whose score, taken from the best, is the spread a full boost spans: a second or third page of results."""
EVIDENCE_SCALE = 2.0
"""People's worth of evidence for about three quarters of the full boost (tanh(2/2) = 0.76)."""
CLICK_WEIGHT = 0.1
"""A click at rank 1 (propensity 1) counts a tenth of a judgment; at rank r, r tenths under the 1/rank prior."""
MAX_CLICK_WEIGHT = 0.8
"""Clipped inverse propensity (Joachims et al. 2017): a deep click counts less than a judgment, and one unlikely
click cannot outweigh people who said what they think."""
MIN_SPREAD = 1e-6
"""When the top scores tie, evidence still orders them."""
PAGES_READ = 1000
"""A query's latest logged pages read for what people were shown and chose: a popular query's picture, at a bounded
cost."""
NEUTRAL_RELEVANCE = 0.2
"""The IPW click rate (clicks per look) that moves a result neither way: below it, people who looked at it passed it
over (the learning loop grades such a result 0 too, `searchapp.learning.clicks.GRADE_CUTS`)."""
SHOWN_SCALE = 8.0
"""People's worth of evidence per unit of IPW click rate above or below NEUTRAL_RELEVANCE: a result everyone who
looked chose weighs 8 × 0.8 = 6.4 (as six "relevant" judgments), one nobody chose −1.6."""
MIN_LOOKS = 3.0
"""Examination mass (Σ θ over a result's pages, the looks it likely had) from which its click rate counts: one page
without a click must not reshuffle a query's results. Below it, clicks on its logged pages move it nothing yet
(`tally`); only a click without a logged page counts alone, by its rank (`click_weight`)."""
FULL_LOOKS = 10.0
"""Looks from which the click rate counts fully; between MIN_LOOKS and this, in proportion."""
CLICK, RELEVANT, NOT_RELEVANT = "click", "relevant", "not_relevant"
"""The kinds of feedback read (`Feedback.Kind`); a row of any other kind says nothing of relevance."""


@dataclass(frozen=True)
class Evidence:
    """What people said of one result for one query."""
    relevant: int = 0
    """People whose judgment is "relevant"."""
    not_relevant: int = 0
    clicked: int = 0
    """People who clicked it and judged it neither way."""
    pages: int = 0
    """Logged pages that showed it for the query (`shown_evidence`)."""
    looks: float = 0.0
    """How many times it was likely looked at on them (Σ θ of their ranks): below MIN_LOOKS its click rate weighs
    nothing yet, and exploration may show it (`searchapp.search.exploration`)."""
    weight: float = 0.0
    """The evidence E: +1 and −1 per judgment; its click rate on the pages that showed it (`shown_evidence`); each
    click without a logged page weighed by `click_weight`."""
    boost: float = 0.0
    """What it added to the result's score in this search (negative: lowered)."""

    @property
    def said(self) -> bool:
        """Whether anyone said anything of it yet: a result only shown, too few times to count, has no say."""
        return bool(self.relevant or self.not_relevant or self.clicked or self.weight)

    @property
    def explanation(self) -> str:
        """In words, as the result's explanation shows it: who found it relevant, and who not (what weighed most
        first). A click counts as finding it relevant, and says so."""
        found, chose = self.relevant + self.clicked, self.clicked
        relevant = (f"{_people(found)} found this relevant" + (
            "" if not chose else f" ({self.relevant} said so, {chose} chose it from the results)" if self.relevant
            else ", choosing it from the results")) if found else ""
        not_relevant = f"{_people(self.not_relevant)} found this not relevant" if self.not_relevant else ""
        passed = (f"seldom chosen on the {self.pages} pages that showed it"
                  if self.weight < 0 and not self.not_relevant else "")
        said = [not_relevant, passed, relevant] if self.weight < 0 else [relevant, not_relevant]
        return "; ".join(part for part in said if part)


def click_weight(rank: int) -> float:
    return min(CLICK_WEIGHT / examination_propensity(rank), MAX_CLICK_WEIGHT)


def evidence_for(feedback, result: str, key: str, text: str, impressions=None) -> dict[int, Evidence]:
    """{result id: its evidence} for a query from the `feedback` rows (Feedback's manager) on results of kind `result`
    ("formula" or "post"): those of the query's key, or of its text as searched (alone for a query without a key,
    such as a stored formula's); with what its pages logged in `impressions` (Impression's manager) say
    (`shown_evidence`). One indexed lookup each."""
    wanted = Q(query=text) | Q(query_key=key) if key else Q(query=text)
    rows = list(feedback.filter(wanted, kind__in=[CLICK, RELEVANT, NOT_RELEVANT], **{f"{result}__isnull": False})
                .order_by("-created_at", "-id")
                .values_list(f"{result}_id", "user_id", "session_key", "kind", "rank", "impression_id"))
    chosen = {(page, found) for found, _, _, kind, _, page in rows if kind == CLICK and page is not None}
    shown = shown_evidence(impressions, key, chosen) if impressions is not None and key else {}
    return tally(rows, shown)


def shown_evidence(impressions, key: str, chosen: set[tuple[int, int]]) -> dict[int, tuple[float, int, float]]:
    """{formula id: (evidence, pages, looks)} for every formula the latest PAGES_READ logged pages of the query's
    `key` showed, `chosen` the (page, formula) clicks on them: its IPW click rate (`ml.ranking.click_model.
    ipw_relevance`, under the propensities the logs gave) against NEUTRAL_RELEVANCE, in people's worth, once it had
    MIN_LOOKS looks (0 before). So results people looked at and passed over go down, and those they chose, however
    low, go up."""
    pages = impressions.filter(query_key=key).order_by("-id").values_list("pk", "formula_ids", "offset")[:PAGES_READ]
    seen: dict[int, tuple[list[int], list[bool]]] = {}
    for pk, formulas, offset in pages:
        for formula, rank, clicked in page_results(pk, formulas, offset, chosen):
            ranks, clicks = seen.setdefault(formula, ([], []))
            ranks.append(rank)
            clicks.append(clicked)
    propensities = current_propensities()
    found = {}
    for formula, (ranks, clicks) in seen.items():
        rate, looks = ipw_relevance(ranks, clicks, propensities)
        counted = min(looks / FULL_LOOKS, 1.0) * SHOWN_SCALE * (rate - NEUTRAL_RELEVANCE) if looks >= MIN_LOOKS else 0.0
        found[formula] = (counted, len(ranks), looks)
    return found


def tally(rows: Iterable[tuple[int, int | None, str, str, int, int | None]],
          shown: dict[int, tuple[float, int, float]]) -> dict[int, Evidence]:
    """Evidence per result from (result id, user id, session key, kind, rank, page) rows, latest first, and what the
    logged pages say (`shown`): a person (the user, else the session) counts once per result, by their latest
    judgment, else by their deepest click. A click on a logged page weighs only through its pages' click rate: one
    person's click, where the logs cannot yet tell a choice from a stray, leaves the order they come back to as it
    was. A click without a page (logged before pages were, or by an API client that names none) weighs by its rank."""
    judged: dict[tuple[int, int | str], str] = {}  # (result, user id else session key)
    clicked: dict[tuple[int, int | str], int] = {}
    for result, user, session, kind, rank, page in rows:
        person = (result, user if user is not None else session)
        if kind == CLICK:
            clicked[person] = max(rank if page is None else 0, clicked.get(person, 0))
        elif kind in (RELEVANT, NOT_RELEVANT):
            judged.setdefault(person, kind)
    found: dict[int, Evidence] = {}
    for (result, _), kind in judged.items():
        before = found.get(result, Evidence())
        if kind == RELEVANT:
            found[result] = replace(before, relevant=before.relevant + 1, weight=before.weight + 1)
        else:
            found[result] = replace(before, not_relevant=before.not_relevant + 1, weight=before.weight - 1)
    for person, rank in clicked.items():
        if person not in judged:
            before = found.get(person[0], Evidence())
            weight = click_weight(rank) if rank else 0.0
            found[person[0]] = replace(before, clicked=before.clicked + 1, weight=before.weight + weight)
    for result, (weight, pages, looks) in shown.items():
        before = found.get(result, Evidence())
        found[result] = replace(before, pages=pages, looks=looks, weight=before.weight + weight)
    return found


def boosted(scores: np.ndarray, ids: list[int], evidence: dict[int, Evidence],
            strength: float | None = None) -> tuple[np.ndarray, dict[int, Evidence]]:
    """The candidates' `scores` (rows of `ids`) with each one's evidence added (module docstring), and the evidence
    of the candidates that have some say (`Evidence.said`), by candidate index, with its `boost`. Unchanged without
    evidence."""
    if not evidence or not len(scores):
        return scores, {}
    beta = settings.MATHSEARCH_FEEDBACK_BOOST if strength is None else strength
    finite = scores[np.isfinite(scores)]
    reach = min(REACH, len(finite))
    spread = float(finite.max() - np.partition(finite, len(finite) - reach)[len(finite) - reach]) if reach else 0.0
    scores = scores.astype(np.float64, copy=True)
    found = {}
    for i, result in enumerate(ids):
        if result in evidence and evidence[result].said:
            lift = beta * max(spread, MIN_SPREAD) * math.tanh(evidence[result].weight / EVIDENCE_SCALE)
            scores[i] += lift
            found[i] = replace(evidence[result], boost=lift)
    return scores, found


def _people(count: int) -> str:
    return f"{count} person" if count == 1 else f"{count} people"
