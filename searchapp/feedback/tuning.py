"""Tune the SLG/OPG fusion on feedback-judged queries; the chosen setting is the search page's default.

Each judged query is searched once; its candidates' per-representation scores are then re-fused
under every setting of the grid, so the grid costs one search per query. The metric is MAP′ of
`ml.evaluation` (unjudged results removed before scoring; grade ≥ 2 relevant, as in ARQMath).
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass

import numpy as np
from django.conf import settings

from ml.evaluation.metrics import evaluate
from ml.formula import ParseError
from ml.retrieval.fusion import DEFAULT_FUSION, FUSIONS, fuse
from searchapp.feedback.qrels import judgements
from searchapp.models import MAX_K, Formula

RELEVANT_GRADE = 2
DEFAULT_SETTING = {"fusion": DEFAULT_FUSION, "slg_weight": 0.5}


@dataclass(frozen=True)
class FusionSetting:
    fusion: str
    slg_weight: float = 0.5


GRID = ([FusionSetting(name) for name in ("max", "avg", "f1", "rrf")]
        + [FusionSetting("weighted", round(w / 10, 1)) for w in range(11)])


@dataclass
class TuningReport:
    queries: int
    skipped: list[str]
    before: FusionSetting
    before_map: float
    best: FusionSetting
    best_map: float
    table: list[tuple[FusionSetting, float]]


def tune(corpus: str | None = None) -> TuningReport:
    """Grid-search the fusion on queries with at least one relevant judgement within `corpus`."""
    judged = {q: g for q, g in judgements(corpus=corpus).items() if max(g.values()) >= RELEVANT_GRADE}
    candidates, skipped = {}, []
    for query in sorted(judged):
        try:
            candidates[query] = _candidate_scores(query, corpus)
        except ParseError:
            skipped.append(query)
    table = [(setting, _mean_ap(setting, candidates, judged)) for setting in GRID]
    before = FusionSetting(**load_setting())
    before_map = _mean_ap(before, candidates, judged)
    best, best_map = max(table, key=lambda row: row[1])
    if before_map >= best_map:  # a tie keeps the current setting rather than churn
        best, best_map = before, before_map
    return TuningReport(len(candidates), skipped, before, before_map, best, best_map, table)


def _candidate_scores(query: str, corpus: str | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    results = Formula.objects.search(query, k=MAX_K, corpus=corpus)
    ids = np.array([hit.formula_id for hit in results.hits], dtype=np.int64)
    slg = np.array([hit.parts["slg"] for hit in results.hits])
    opg = np.array([hit.parts["opg"] for hit in results.hits])
    return ids, slg, opg


def _mean_ap(setting: FusionSetting, candidates: dict, judged: dict) -> float:
    """MAP′ of the re-fused rankings over the queries that could be searched."""
    run = {}
    for query, (ids, slg, opg) in candidates.items():
        fused = fuse(slg, opg, setting.fusion, setting.slg_weight) if len(ids) else np.zeros(0)
        order = np.argsort(-fused, kind="stable")
        run[query] = [(str(ids[i]), float(fused[i])) for i in order]
    qrels = {query: {str(f): grade for f, grade in judged[query].items()} for query in candidates}
    return evaluate(run, qrels, threshold=RELEVANT_GRADE)["map_prime"]


def load_setting() -> dict:
    """The tuned fusion setting, or the built-in default when nothing was tuned (or the file is unreadable)."""
    try:
        data = json.loads(settings.MATHSEARCH_FUSION_FILE.read_text())
        setting = {"fusion": str(data["fusion"]), "slg_weight": float(data["slg_weight"])}
    except (OSError, ValueError, KeyError, TypeError):
        return dict(DEFAULT_SETTING)
    return setting if setting["fusion"] in FUSIONS else dict(DEFAULT_SETTING)


def save_setting(report: TuningReport) -> None:
    path = settings.MATHSEARCH_FUSION_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**asdict(report.best), "map_prime": round(report.best_map, 4),
                                "queries": report.queries}, indent=2) + "\n")
