"""Clicks as training signal, corrected for position bias: people click what is shown high whether or not it is the
best, so a raw click count teaches a ranker its own order back.

The examination propensity of each rank is estimated from the logged impressions and their clicks
(`ml.ranking.click_model`, EM of the position-based model; the prior 1/rank while the logs hold few clicks). Each
result shown for a query then gets its IPW relevance, Σ click/θ_rank over its impressions ÷ their number, turned into
a grade (`click_grade`). Grades rather than LightGBM weights: the ranker is trained and cross-validated on graded
topics (`training.feedback_topics`), and the offline check that guards installation scores rankers against those
same grades; weights would enter the training but not the check.

Explicit judgments always beat clicks; a click logged without its impression (before impressions were, or from an
API client that did not send one) keeps the grade 1 it always had.
"""
from __future__ import annotations

import datetime

from django.db.models import Q

from ml.ranking.click_model import Propensities, estimate_propensities, ipw_relevance, page_results
from searchapp.feedback.qrels import judgements
from searchapp.models import Feedback, Formula, Impression
from searchapp.sql import id_array

IMPRESSIONS_READ = 20_000
"""The latest impressions the propensities are estimated from: position bias is a property of the page, and
changes with it, so recent logs of every corpus count."""
MIN_EXAMINED = 2.0
"""A result's examination mass (Σ θ over its impressions) below which its clicks, or their absence, set no grade of
their own: shown twice at rank 1, or twenty times near rank 10."""
MAX_CLICK_WEIGHT = 10.0
"""A click's weight 1/θ is clipped here when clicks are counted: one click deep down must not count as fifty."""
GRADE_CUTS = ((0.5, 2), (0.2, 1))
"""IPW relevance from which a result gets grade 2 (as a "relevant" judgment), else 1; below 0.2, 0. Half of those
who look at it click it: what people do for results they judge relevant."""


def estimated_propensities(corpus: str | None = None, limit: int = IMPRESSIONS_READ) -> Propensities:
    """θ per rank from the latest `limit` impressions (of `corpus`, or of all) and the clicks made on them."""
    impressions = Impression.objects.order_by("-id")
    if corpus:
        impressions = impressions.filter(corpus__name=corpus)
    pages = list(impressions.values_list("pk", "query", "formula_ids", "offset")[:limit])
    clicked = Feedback.objects.clicks_on([page[0] for page in pages])
    results, ranks, clicks = [], [], []
    for pk, query, formulas, offset in pages:
        for formula, rank, was_clicked in page_results(pk, formulas, offset, clicked):
            results.append((query, formula))
            ranks.append(rank)
            clicks.append(was_clicked)
    return estimate_propensities(results, ranks, clicks)


def click_grade(relevance: float, examined: float, was_clicked: bool) -> int | None:
    """A result's grade from its IPW relevance and examination mass (`ml.ranking.click_model.ipw_relevance`); None
    when the logs say nothing of it (seldom looked at, never clicked)."""
    if examined < MIN_EXAMINED:
        return 1 if was_clicked else None
    return next((grade for cut, grade in GRADE_CUTS if relevance >= cut), 0)


def ipw_grades(corpus: str, propensities: Propensities) -> dict[str, dict[int, int]]:
    """{query: {formula_id: grade}} of the corpus's formulas shown in impressions (of this corpus, or of a search of
    all corpora), from their clicks."""
    pages = Impression.objects.filter(Q(corpus__name=corpus) | Q(corpus__isnull=True))
    clicked = Feedback.objects.clicks_on(pages)
    shown: dict[tuple[str, int], list[tuple[int, bool]]] = {}
    for pk, query, formulas, offset in pages.values_list("pk", "query", "formula_ids", "offset"):
        for formula, rank, was_clicked in page_results(pk, formulas, offset, clicked):
            shown.setdefault((query, formula), []).append((rank, was_clicked))
    own = set(Formula.objects.filter(corpus__name=corpus, pk__in=id_array({formula for _, formula in shown}))
              .values_list("pk", flat=True))
    grades: dict[str, dict[int, int]] = {}
    for (query, formula), seen in shown.items():
        relevance, examined = ipw_relevance([rank for rank, _ in seen], [click for _, click in seen], propensities)
        grade = click_grade(relevance, examined, any(click for _, click in seen))
        if grade is not None and formula in own:
            grades.setdefault(query, {})[formula] = grade
    return grades


def feedback_grades(corpus: str, propensities: Propensities | None = None) -> dict[str, dict[int, int]]:
    """{query: {formula_id: grade}} of the corpus's formulas: clicks without an impression (1), overridden by the
    IPW grades of logged impressions, overridden by explicit judgments (the latest of each result)."""
    propensities = propensities if propensities is not None else estimated_propensities()
    unlogged = Feedback.objects.filter(kind=Feedback.Kind.CLICK, impression__isnull=True)
    grades: dict[str, dict[int, int]] = {}
    for layer in (judgements(unlogged, corpus), ipw_grades(corpus, propensities),
                  judgements(Feedback.objects.judgments(), corpus)):
        for query, judged in layer.items():
            grades.setdefault(query, {}).update(judged)
    return grades


def new_signals(corpus: str, since: datetime.datetime | None, propensities: Propensities) -> float:
    """The corpus's judgments since `since` (all, without one), plus its clicks since, each weighted 1/θ of its rank
    (at most MAX_CLICK_WEIGHT): how much the feedback changed since the last training."""
    rows = Feedback.objects.filter(formula__corpus__name=corpus)
    if since is not None:
        rows = rows.filter(created_at__gt=since)
    judged = rows.filter(~Q(kind=Feedback.Kind.CLICK)).count()
    ranks = rows.filter(kind=Feedback.Kind.CLICK).values_list("rank", flat=True)
    return judged + sum(min(1 / propensities.at(rank), MAX_CLICK_WEIGHT) for rank in ranks)
