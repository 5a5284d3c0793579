"""Train the learned ranker: on the ARQMath development topics (the shipped `models/ranker`), and on a corpus's
relevance feedback added to them (that corpus's own ranker).

Every metric reported is cross-validated over topics (`ml.ranking.cross_validation`); the saved model is then
fitted on all topics with the capacity the cross-validation chose.
"""
from __future__ import annotations

import datetime
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from django.conf import settings

from ml.evaluation.baselines import random_baseline
from ml.evaluation.bootstrap import paired_intervals
from ml.evaluation.metrics import METRIC_LABELS, RELEVANT_GRADE, evaluate, rounded
from ml.ranking.click_model import Propensities
from ml.ranking.cross_validation import (
    DELTA_METRICS,
    TopicCandidates,
    across_fold_seeds,
    choose_capacity,
    criterion,
    cross_validate,
    ranking,
    training_topic,
)
from ml.ranking.features import FEATURES
from ml.ranking.ranker import CAPACITIES, Capacity, Ranker, RankerError, TrainingTopic, fit, load
from searchapp.feedback.qrels import query_id
from searchapp.learning import judged_corpus
from searchapp.learning.clicks import feedback_grades
from searchapp.learning.judged import judged_topics
from searchapp.live.ranker_history import without_it

EXTRA_WEIGHT = 2.0
"""How much an ARQMath-2 topic counts against a development topic in training: 2 cross-validated best of 0.25–8
(models/ranker/README.md), within the noise of the folds."""


@dataclass(frozen=True)
class Judged:
    data: dict[str, TopicCandidates]
    qrels: dict[str, dict[str, int]]
    unreadable: list[str]

    def topics(self) -> list[str]:
        """The topics with both candidates and judgments, sorted."""
        return sorted(topic for topic in self.data if topic in self.qrels)

    def training(self, weight: float = 1.0) -> list[TrainingTopic]:
        return [replace(training_topic(self.data[topic], self.qrels[topic]), weight=weight) for topic in self.topics()]


def dev_topics(data_dir: Path, qrels_path: Path, progress=print) -> Judged:
    """The development topics' candidates in the ARQMath-1 benchmark corpus, indexed into the current database
    (call inside `throwaway_database`)."""
    qrels, topics = judged_corpus.read_inputs(data_dir, qrels_path)
    judged_corpus.ensure_corpus(data_dir, progress)
    data, unreadable = judged_corpus.judged_candidates(qrels, topics)
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


def train_on_dev(dev: Judged, extra: Judged | None = None) -> tuple[Ranker, dict]:
    """Cross-validate, choose the capacity over all topics, fit on all; the report of what was measured. `extra`
    topics (ARQMath-2's) join every fold's training data at EXTRA_WEIGHT; only development topics are scored."""
    always = extra.training(EXTRA_WEIGHT) if extra else []
    _, cv = across_fold_seeds(dev.data, dev.qrels, always=always)
    capacity = dev_capacity(dev, always)
    ranker = fit(dev.training() + always, capacity)
    report = {"trained_on": "ARQMath-1 Task 2 development topics" + (" and ARQMath-2 Task 2 topics" if extra else ""),
              "topics": len(dev.data) + len(always), "unreadable_topics": dev.unreadable, "cross_validated": cv,
              "importance": importance(ranker)}
    if extra:
        report["extra_topics"] = {"topics": len(always), "judgments": sum(len(grades) for grades in extra.qrels.values()),
                                  "judged_candidates": sum(len(t.grades) for t in always),
                                  "relevant": sum(int((t.grades >= RELEVANT_GRADE).sum()) for t in always),
                                  "unreadable_topics": extra.unreadable, "weight": EXTRA_WEIGHT}
    return ranker, report


def train_on_feedback(feedback: Judged, dev: Judged, shipped: Ranker | None, capacity: Capacity) -> tuple[Ranker, dict]:
    """The corpus's ranker: fitted on the development topics plus the feedback queries. "before" is how the
    feedback queries rank by dense fusion and by the shipped ranker (which never saw them); "after" is the new
    ranker cross-validated over the feedback queries, each fold trained on the other folds and all dev topics: the
    report's "training" entry (`beats_before` says whether it is good enough to rank the corpus)."""
    dev_training = dev.training()
    cv = cross_validate(feedback.data, feedback.qrels, capacity=capacity, always=dev_training)
    before = {"dense": rounded(cv.dense)}
    if shipped is not None:
        before["shipped"] = rounded(evaluate({t: ranking(c, shipped.scores(c.features)) for t, c in feedback.data.items()},
                                             feedback.qrels))
    # to the millisecond: the next training counts the feedback after this one as new (`clicks.new_signals`); to the
    # second, what came in the same second before it counted again, or after it did not
    entry = {"at": datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds"),
             "queries": len(feedback.data), "judgments": sum(len(g) for g in feedback.qrels.values()),
             "before": before, "after": rounded(cv.ranker)}
    ranker = fit(dev_training + feedback.training(), capacity)
    report = {"trained_on": "this corpus's feedback" + (" and the ARQMath-1 Task 2 development topics" if dev.data else ""),
              "topics": len(dev_training) + len(feedback.data), "unreadable_queries": len(feedback.unreadable),
              "cross_validated": cv.report(), "importance": importance(ranker),
              "training": entry}
    return ranker, report


def beats_before(entry: dict) -> bool:
    """Whether a training's cross-validated ranker ranks the corpus's judged queries at least as well as what they
    would get without it: the shipped ranker, else dense fusion. Judged as the capacity is chosen, by the mean of
    MAP′ and P′@10. A few clicks can teach trees worse than the shipped ones; installing them would make the
    corpus's searches worse for having been judged."""
    return criterion(entry["after"]) >= criterion(without_it(entry)[1])


def held_out_report(ranker: Ranker, judged: Judged) -> dict:
    """How `ranker` orders topics it never saw and nothing was chosen by, beside the dense order of the same
    candidates and a random order of the judged ones, with the paired Δ against dense (95 % bootstrap)."""
    learned = evaluate({topic: ranking(judged.data[topic], ranker.scores(judged.data[topic].features))
                        for topic in judged.topics()}, judged.qrels)
    dense = evaluate({topic: ranking(judged.data[topic], judged.data[topic].dense) for topic in judged.topics()},
                     judged.qrels)
    delta = paired_intervals(learned["per_topic"], dense["per_topic"], DELTA_METRICS)
    return {"topics": len(judged.topics()), "judgments": sum(len(judged.qrels[t]) for t in judged.topics()),
            "unreadable_topics": judged.unreadable, "learned": rounded(learned), "dense": rounded(dense),
            "random": rounded(random_baseline(judged.qrels, seed=0, repeats=100)),
            "delta_vs_dense": {m: [round(i.mean, 4), round(i.lo, 4), round(i.hi, 4)] for m, i in delta.items()}}


def held_out_lines(report: dict) -> list[str]:
    """A `held_out_report` as lines of text."""
    lines = [f"  {report['topics']} topics, {report['judgments']} judged formulas on the pages"]
    lines += [f"  {name:10}" + "".join(f"{METRIC_LABELS[m]} {report[name][m]:.4f}  " for m in METRIC_LABELS)
              for name in ("learned", "dense", "random")]
    return lines + [f"  Δ {METRIC_LABELS[metric]}: {mean:+.4f} [{lo:+.4f}, {hi:+.4f}]"
                    for metric, (mean, lo, hi) in report["delta_vs_dense"].items()]


def dev_capacity(dev: Judged, always: list[TrainingTopic] | None = None) -> Capacity:
    """The capacity that cross-validates best over all development topics, `always` in every fold's training
    data (the smallest without any)."""
    topics = dev.topics()
    return choose_capacity(dev.data, dev.qrels, topics, always=always or ()) if topics else CAPACITIES[0]


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


def importance(ranker: Ranker) -> dict[str, float]:
    """Each feature's share of the total split gain."""
    gains = np.asarray(ranker.booster.feature_importance("gain"), dtype=np.float64)
    total = gains.sum() or 1.0
    return {name: round(float(gain / total), 4) for name, gain in zip(FEATURES, gains)}
