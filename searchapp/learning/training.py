"""Train the learned ranker: on the ARQMath development topics (the shipped `models/ranker`), and on a corpus's
relevance feedback added to them (that corpus's own ranker).

Every metric reported is cross-validated over topics (`ml.ranking.cross_validation`); the saved model is then
fitted on all topics with the capacity the cross-validation chose.
"""
from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from django.conf import settings

from ml.evaluation.metrics import METRIC_LABELS, evaluate, rounded
from ml.ranking.click_model import Propensities
from ml.ranking.cross_validation import (
    TopicCandidates,
    across_fold_seeds,
    choose_capacity,
    criterion,
    cross_validate,
    ranking,
    training_topic,
)
from ml.ranking.features import FEATURES
from ml.ranking.ranker import CAPACITIES, Capacity, Ranker, RankerError, TrainingTopic, fit, load, read_report
from searchapp.benchmarks import arqmath1
from searchapp.feedback.qrels import query_id
from searchapp.learning.clicks import feedback_grades
from searchapp.learning.judged import judged_topics
from searchapp.search.ranking import corpus_ranker_dir

RELEVANT_GRADE = 2
HISTORY_KEPT = 50


@dataclass(frozen=True)
class Judged:
    data: dict[str, TopicCandidates]
    qrels: dict[str, dict[str, int]]
    unreadable: list[str]

    def topics(self) -> list[str]:
        """The topics with both candidates and judgments, sorted."""
        return sorted(topic for topic in self.data if topic in self.qrels)

    def training(self) -> list[TrainingTopic]:
        return [training_topic(self.data[topic], self.qrels[topic]) for topic in self.topics()]


def dev_topics(data_dir: Path, qrels_path: Path, progress=print) -> Judged:
    """The development topics' candidates in the ARQMath-1 benchmark corpus, indexed into the current database
    (call inside `throwaway_database`)."""
    qrels, topics = arqmath1.read_inputs(data_dir, qrels_path)
    arqmath1.build_corpus(data_dir, progress)
    data, unreadable = arqmath1.judged_candidates(qrels, topics)
    return Judged(data, qrels, unreadable)


def feedback_topics(corpus: str, propensities: Propensities | None = None) -> Judged:
    """The corpus's feedback-judged queries with at least one relevant formula, as topics named by query hash: its
    judgments, and its clicks corrected for position bias (`searchapp.learning.clicks`; estimated from the logs
    unless given)."""
    judged = {query: grades for query, grades in feedback_grades(corpus, propensities).items()
              if max(grades.values()) >= RELEVANT_GRADE}
    texts = {"fb-" + query_id(query): query for query in judged}
    data, unreadable = judged_topics(texts, corpus)
    qrels = {topic: {str(formula): grade for formula, grade in judged[texts[topic]].items()} for topic in texts}
    return Judged(data, {topic: grades for topic, grades in qrels.items() if topic in data}, unreadable)


def train_on_dev(dev: Judged) -> tuple[Ranker, dict]:
    """Cross-validate, choose the capacity over all topics, fit on all; the report of what was measured."""
    _, cv = across_fold_seeds(dev.data, dev.qrels)
    capacity = dev_capacity(dev)
    ranker = fit(dev.training(), capacity)
    report = {"trained_on": "ARQMath-1 Task 2 development topics", "topics": len(dev.data),
              "unreadable_topics": dev.unreadable, "cross_validated": cv,
              "importance": importance(ranker)}
    return ranker, report


def train_on_feedback(feedback: Judged, dev: Judged, shipped: Ranker | None, capacity: Capacity,
                      previous: list[dict]) -> tuple[Ranker, dict]:
    """The corpus's ranker: fitted on the development topics plus the feedback queries. "before" is how the
    feedback queries rank by dense fusion and by the shipped ranker (which never saw them); "after" is the new
    ranker cross-validated over the feedback queries, each fold trained on the other folds and all dev topics.
    "installed" says whether it is good enough to rank the corpus (`beats_before`)."""
    dev_training = dev.training()
    cv = cross_validate(feedback.data, feedback.qrels, capacity=capacity, always=dev_training)
    before = {"dense": rounded(cv.dense)}
    if shipped is not None:
        before["shipped"] = rounded(evaluate({t: ranking(c, shipped.scores(c.features)) for t, c in feedback.data.items()},
                                             feedback.qrels))
    entry = {"at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
             "queries": len(feedback.data), "judgments": sum(len(g) for g in feedback.qrels.values()),
             "before": before, "after": rounded(cv.ranker)}
    entry["installed"] = beats_before(entry)
    ranker = fit(dev_training + feedback.training(), capacity)
    report = {"trained_on": "this corpus's feedback" + (" and the ARQMath-1 Task 2 development topics" if dev.data else ""),
              "topics": len(dev_training) + len(feedback.data), "unreadable_queries": len(feedback.unreadable),
              "cross_validated": cv.report(), "importance": importance(ranker),
              "installed": entry["installed"], "history": (previous + [entry])[-HISTORY_KEPT:]}
    return ranker, report


def beats_before(entry: dict) -> bool:
    """Whether a training's cross-validated ranker ranks the corpus's judged queries at least as well as what they
    would get without it: the shipped ranker, else dense fusion. Judged as the capacity is chosen, by the mean of
    MAP′ and P′@10. A few clicks can teach trees worse than the shipped ones; installing them would make the
    corpus's searches worse for having been judged."""
    return criterion(entry["after"]) >= criterion(without_it(entry)[1])


def without_it(entry: dict) -> tuple[str, dict]:
    """What a training's judged queries get without the corpus's own ranker, named, and its scores: the shipped
    ranker's when one was measured, else dense fusion's."""
    before = entry["before"]
    return ("the shipped ranker", before["shipped"]) if "shipped" in before else ("dense fusion", before["dense"])


def dev_capacity(dev: Judged) -> Capacity:
    """The capacity that cross-validates best over all development topics (the smallest without any)."""
    topics = dev.topics()
    return choose_capacity(dev.data, dev.qrels, topics) if topics else CAPACITIES[0]


def cv_lines(cv: dict) -> list[str]:
    """A cross-validation report (`CrossValidation.report`) as lines of text: means, paired Δ, folds, and the Δ
    under other fold seeds when it has them."""
    lines = [f"{'':12}" + "".join(f"{METRIC_LABELS[m]:>9}" for m in METRIC_LABELS)]
    lines += [f"{name:12}" + "".join(f"{cv[name][m]:>9.4f}" for m in METRIC_LABELS) for name in ("learned", "dense")]
    lines += [f"  Δ {METRIC_LABELS[metric]}: {mean:+.4f} [{lo:+.4f}, {hi:+.4f}]"
              for metric, (mean, lo, hi) in cv["delta_vs_dense"].items()]
    lines += [f"  fold of {fold['topics']} topics, {fold['capacity']}: MAP′ {fold['learned']['map_prime']:.3f}"
              f" (dense {fold['dense']['map_prime']:.3f}), P′@10 {fold['learned']['p10_prime']:.3f}"
              f" (dense {fold['dense']['p10_prime']:.3f})" for fold in cv["folds"]]
    lines += [f"  fold seed {entry['seed']}: " + ", ".join(f"Δ {METRIC_LABELS[metric]} {delta:+.4f}"
                                                        for metric, delta in entry["delta_vs_dense"].items())
              for entry in cv.get("fold_seeds", ())]
    return lines


def shipped_ranker() -> Ranker | None:
    """The shipped ranker (`models/ranker`), if there is a readable one: what a corpus without its own gets."""
    try:
        return load(settings.MATHSEARCH_RANKER_DIR)
    except RankerError:
        return None


def corpus_history(corpus: str) -> list[dict]:
    """The trainings of the corpus's own ranker so far (empty if it has none)."""
    try:
        return read_report(corpus_ranker_dir(corpus)).get("history", [])
    except RankerError:  # none yet, or unreadable: no history to show
        return []


def importance(ranker: Ranker) -> dict[str, float]:
    """Each feature's share of the total split gain."""
    gains = np.asarray(ranker.booster.feature_importance("gain"), dtype=np.float64)
    total = gains.sum() or 1.0
    return {name: round(float(gain / total), 4) for name, gain in zip(FEATURES, gains)}
