"""ARQMath prime metrics: nDCG′, MAP′, P′@10 over judged results only, plus judged@10.

"Prime" means unjudged documents are removed from the run before scoring (DESIGN.md §5), so systems are
compared on the same judged pool whether or not they took part in the pooling. The definitions follow
trec_eval, which ARQMath runs on the filtered files:

    nDCG′ = DCG / IDCG,  DCG = Σ_k rel_k / log2(k + 1)  (gain = the grade, k = 1-based rank)
            IDCG = the same sum over all of the topic's judged grades sorted descending
    AP′   = (1/R) Σ_{k : doc k relevant} P′@k,  R = number of judged docs with grade ≥ threshold
    P′@10 = (relevant docs in the top 10 of the filtered run) / 10
    judged@10 = (judged docs in the top 10 of the *unfiltered* run) / 10

Means are over every topic in the qrels; a topic the run leaves out scores 0 on all four.
"""
from __future__ import annotations

import math

from corpora.ranking import Qrels, Run

METRICS = ("ndcg_prime", "map_prime", "p10_prime", "judged_at_10")
METRIC_LABELS = {"ndcg_prime": "nDCG′", "map_prime": "MAP′", "p10_prime": "P′@10"}
"""The three prime metrics as reports name them."""
RELEVANT_GRADE = 2
"""The lowest grade MAP′ and P′@10 count as relevant, as ARQMath does."""
ARQMATH_DEPTH = 1000
"""ARQMath runs return at most 1000 results a topic; deeper results are ignored, as trec_eval -M 1000 does."""


def dcg(grades: list[int]) -> float:
    return sum(grade / math.log2(rank + 1) for rank, grade in enumerate(grades, start=1))


def ndcg(grades: list[int], judged_grades: list[int], cutoff: int | None = None) -> float:
    """nDCG of a ranked grade list against the ideal ordering of all judged grades (0 when nothing is relevant)."""
    ideal = sorted(judged_grades, reverse=True)[:cutoff]
    best = dcg(ideal)
    return dcg(grades[:cutoff]) / best if best > 0 else 0.0


def average_precision(hits: list[bool], relevant_total: int) -> float:
    """AP with the qrels' relevant count as denominator, so relevant docs the run misses count as misses."""
    if relevant_total == 0:
        return 0.0
    found, total = 0, 0.0
    for rank, hit in enumerate(hits, start=1):
        if hit:
            found += 1
            total += found / rank
    return total / relevant_total


def topic_metrics(ranked: list[str], judgments: dict[str, int], threshold: int = RELEVANT_GRADE,
                  cutoff: int | None = None) -> dict[str, float]:
    """The four metrics for one topic; `ranked` is the unfiltered run's doc ids, best first."""
    grades = [judgments[doc] for doc in ranked if doc in judgments]
    hits = [grade >= threshold for grade in grades]
    relevant_total = sum(grade >= threshold for grade in judgments.values())
    return {
        "ndcg_prime": ndcg(grades, list(judgments.values()), cutoff),
        "map_prime": average_precision(hits, relevant_total),
        "p10_prime": sum(hits[:10]) / 10,
        "judged_at_10": sum(doc in judgments for doc in ranked[:10]) / 10,
    }


def mean_metrics(per_topic: dict[str, dict[str, float]]) -> dict[str, float]:
    count = len(per_topic)
    return {name: sum(scores[name] for scores in per_topic.values()) / count if count else 0.0 for name in METRICS}


def evaluate(run: Run, qrels: Qrels, threshold: int = RELEVANT_GRADE, cutoff: int | None = None,
             depth: int = ARQMATH_DEPTH) -> dict:
    """Prime metrics of `run` (lists already in rank order) averaged over the qrels topics.

    `threshold` is the lowest grade counted relevant for MAP′ and P′@10 (ARQMath: 2); `cutoff` truncates
    nDCG′ (None = the full ranked list, as ARQMath reports it); `depth` caps the unfiltered run per topic.
    Returns {"ndcg_prime", "map_prime", "p10_prime", "judged_at_10", "topics", "per_topic"}.
    """
    per_topic = {}
    for topic, judgments in qrels.items():
        ranked = [doc for doc, _ in run.get(topic, [])[:depth]]
        per_topic[topic] = topic_metrics(ranked, judgments, threshold, cutoff)
    return {**mean_metrics(per_topic), "topics": len(per_topic), "per_topic": per_topic}


def rounded(scores: dict) -> dict:
    """The prime metrics of an evaluation, rounded for reports."""
    return {m: round(scores[m], 4) for m in METRICS if m in scores}
