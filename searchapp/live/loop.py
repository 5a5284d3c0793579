"""The learning loop of a corpus, one round at a time (Celery beat runs `learn_all` every few minutes; a simulation
calls `learning_round` directly):

1. **Retrain when due**: once the corpus has MATHSEARCH_RETRAIN_AFTER new judgments and position-weighted clicks
   (`clicks.new_signals`) since its last training, and no candidate is under test, a candidate ranker is trained on
   its feedback (`training.train_on_feedback`). One that cross-validates below what the corpus has
   (`training.beats_before`) is recorded and dropped; one that passes waits under test for interleaving.
2. **Decide when due**: a candidate is installed once interleaving shows it better (at least MIN_COMPARED compared
   impressions and the 95 % interval of (wins − losses) / compared above 0), and discarded once it shows it worse
   (the interval below 0) or shows no difference after MAX_COMPARED. The offline check has passed by then, so the
   two agree whenever a candidate is installed.

Every training and decision is recorded in the corpus's rankers (`searchapp.rankers`), which the staff Rankers page
and the corpus's admin page show. A round holds the corpus's Postgres advisory lock, so two never run at once on one corpus (the
beat task and a manual round, or a task delivered twice); the loser returns at once.
"""
from __future__ import annotations

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.db import connection

from ml.ranking.click_model import Propensities
from ml.ranking.interleaving import BETTER, WORSE, verdict
from ml.ranking.ranker import Ranker
from searchapp.learning import training
from searchapp.learning.clicks import estimated_propensities, new_signals
from searchapp.live.serving import interleaving_outcome
from searchapp.models import Corpus, CorpusRanker
from searchapp.rankers import RankerState, entry
from searchapp.search.propensity import remember_propensities

LEARN_LOCK_CLASS = 7402
"""First key of the session advisory lock `(LEARN_LOCK_CLASS, corpus id)` a learning round holds."""


@dataclass(frozen=True)
class Round:
    """What one round did: the training's history entry, if it trained; the decision's entry, if it decided."""
    corpus: str
    trained: dict | None = None
    decision: dict | None = None
    busy: bool = False
    """Another round held the corpus's lock: this one did nothing."""


def learn_all() -> list[Round]:
    """The position bias estimated once for all, and shared with every search (`searchapp.search.propensity`); then
    a round for every corpus (the periodic task)."""
    propensities = estimated_propensities()
    remember_propensities(propensities)
    return [learning_round(name, propensities=propensities)
            for name in Corpus.objects.order_by("name").values_list("name", flat=True)]


def learning_round(corpus: str, *, dev: training.Judged | None = None, retrain_after: float | None = None,
                   min_compared: int | None = None, max_compared: int | None = None,
                   propensities: Propensities | None = None) -> Round:
    """Retrain the corpus's candidate if due, then decide on its candidate if due (see the module's docstring);
    `dev` topics join every training (none by default: indexing them takes minutes); the thresholds default to
    the settings, the propensities to an estimate from the logs."""
    with corpus_lock(corpus) as held:
        if not held:
            return Round(corpus, busy=True)
        trained = retrain_if_due(corpus, dev, retrain_after, propensities)
        return Round(corpus, trained, decide(corpus, min_compared, max_compared))


@contextmanager
def corpus_lock(corpus: str) -> Iterator[bool]:
    """Yields whether this process got the corpus's learning lock (released on leaving)."""
    key = Corpus.objects.filter(name=corpus).values_list("pk", flat=True).first()
    if key is None:
        yield False
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [LEARN_LOCK_CLASS, key])
        held = cursor.fetchone()[0]
    try:
        yield held
    finally:
        if held:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LEARN_LOCK_CLASS, key])


def retrain_if_due(corpus: str, dev: training.Judged | None = None, retrain_after: float | None = None,
                   propensities: Propensities | None = None) -> dict | None:
    """Train a candidate when the corpus has enough new feedback and none is under test; its history entry, else
    None (also when fewer than two queries have a relevant result: there is nothing to cross-validate)."""
    threshold = settings.MATHSEARCH_RETRAIN_AFTER if retrain_after is None else retrain_after
    if CorpusRanker.objects.under_test(corpus) is not None:
        return None
    propensities = propensities or estimated_propensities()
    if new_signals(corpus, CorpusRanker.objects.last_trained_at(corpus), propensities) < threshold:
        return None
    judged = training.feedback_topics(corpus, propensities)
    if len(judged.data) < 2:
        return None
    return entry(train(corpus, judged, dev)[0])


def train(corpus: str, judged: training.Judged, dev: training.Judged | None = None,
          install: bool = False) -> tuple[CorpusRanker, dict]:
    """Train the corpus's ranker on `judged` (and `dev`) and record it: worse offline, or under test (with `install`,
    as `train_ranker` asks, installed at once); its row and the training's report."""
    ranker, report = fit(judged, dev)
    corpus_id = Corpus.objects.get(name=corpus).pk
    if not training.beats_before(report["training"]):
        return CorpusRanker.objects.record_training(corpus_id, report["training"]), report
    return CorpusRanker.objects.record_training(corpus_id, report["training"], ranker, report, install), report


def fit(judged: training.Judged, dev: training.Judged | None = None) -> tuple[Ranker, dict]:
    """A ranker fitted on a corpus's judged queries and the `dev` topics, with the shipped ranker's capacity (or the
    one the dev topics choose), and the report of its training."""
    dev = dev or training.Judged({}, {}, [])
    shipped = training.shipped_ranker()
    capacity = shipped.capacity if shipped else training.dev_capacity(dev)
    return training.train_on_feedback(judged, dev, shipped, capacity)


def decide(corpus: str, min_compared: int | None = None, max_compared: int | None = None) -> dict | None:
    """Install or discard the corpus's candidate when interleaving has settled it; the decision's entry, else None."""
    candidate = CorpusRanker.objects.under_test(corpus)
    if candidate is None:
        return None
    low = settings.MATHSEARCH_INTERLEAVE_MIN_COMPARED if min_compared is None else min_compared
    high = settings.MATHSEARCH_INTERLEAVE_MAX_COMPARED if max_compared is None else max_compared
    result = interleaving_outcome(corpus, candidate.candidate)
    said = verdict(result, low)
    if said == BETTER:
        decision, why = RankerState.INSTALLED, "interleaving shows it better, as the offline check did"
    elif said == WORSE:
        decision, why = RankerState.DISCARDED, "interleaving shows it worse"
    elif result.compared >= high:
        decision, why = RankerState.DISCARDED, f"no difference shown after {result.compared} compared impressions"
    else:
        return None
    made = {"at": _now(), "candidate": candidate.candidate, "decision": decision.value, "why": why, "wins": result.wins,
            "losses": result.losses, "ties": result.ties, "interval": [round(result.lo, 4), round(result.hi, 4)]}
    if decision == RankerState.INSTALLED:
        CorpusRanker.objects.install(candidate, made)
    else:
        CorpusRanker.objects.discard(candidate, made)
    return made


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
