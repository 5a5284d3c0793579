"""Pool evaluation of an embedding model: rank each topic's judged formulas by maxsim and fusion.

Every judged visual id is embedded once (from its LaTeX, else its SLT string); a formula that does
not parse scores 0 for every query. Rows name a configuration: one representation alone, or both
fused (DESIGN.md §4), so a table like In+Out's Table 2 can be printed.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from corpora.ranking import Qrels, Run, rank_by_score
from mathparse import ParseError, parse
from ml.embed import embed
from ml.evaluation.dev_split import DevSplit
from ml.evaluation.metrics import evaluate
from ml.retrieval.maxsim import maxsim_many
from ml.retrieval.score_fusion import fuse

CONFIGURATIONS = ("slg", "opg", "max", "avg", "f1", "rrf")


@dataclass(frozen=True)
class PoolScores:
    """Per topic: judged doc ids and their normalised maxsim per representation."""

    docs: dict[str, list[str]]
    slg: dict[str, np.ndarray]
    opg: dict[str, np.ndarray]


def score_pools(split: DevSplit, qrels: Qrels, model) -> PoolScores:
    doc_ids = sorted({doc for judged in qrels.values() for doc in judged})
    texts = split.doc_texts()
    doc_vectors = dict(zip(doc_ids, _embed_texts([texts.get(d, ("latex", None)) for d in doc_ids], model)))
    topics = sorted(qrels)
    query_vectors = dict(zip(topics, _embed_texts([("latex", split.topics_latex.get(t)) for t in topics], model)))
    docs: dict[str, list[str]] = {}
    slg: dict[str, np.ndarray] = {}
    opg: dict[str, np.ndarray] = {}
    for topic in topics:
        docs[topic] = sorted(qrels[topic])
        query = query_vectors[topic]
        for name, out in (("slg", slg), ("opg", opg)):
            matrices = [doc_vectors[d][name] for d in docs[topic]]
            out[topic] = maxsim_many(query[name], matrices) / max(len(query[name]), 1)
    return PoolScores(docs, slg, opg)


def run_for(scores: PoolScores, configuration: str) -> Run:
    if configuration not in CONFIGURATIONS:
        raise ValueError(f"unknown configuration {configuration!r}; choose one of {', '.join(CONFIGURATIONS)}")
    run = {}
    for topic, docs in scores.docs.items():
        slg, opg = scores.slg[topic], scores.opg[topic]
        values = {"slg": slg, "opg": opg}.get(configuration)
        if values is None:
            values = fuse(slg, opg, configuration)
        run[topic] = rank_by_score(zip(docs, values.tolist()))
    return run


def evaluate_configurations(scores: PoolScores, qrels: Qrels, configurations=CONFIGURATIONS) -> dict[str, dict]:
    return {name: evaluate(run_for(scores, name), qrels) for name in configurations}


def best_seeds(by_seed: Mapping[int, Mapping[str, dict]], metric: str = "map_prime") -> dict[str, int]:
    """Per configuration, the seed whose `evaluate_configurations` result has the highest mean `metric`.

    Picked on the same topics it is reported on, so a trained model's margin over the best seed is a
    conservative one. Ties go to the lowest seed.
    """
    seeds = sorted(by_seed)
    if not seeds:
        raise ValueError("no seeds to choose from")
    return {name: max(seeds, key=lambda seed: by_seed[seed][name][metric]) for name in by_seed[seeds[0]]}


def _embed_texts(texts: list[tuple[str, str | None]], model) -> list[dict]:
    """Node vectors per text; unparsable or missing texts get empty matrices."""
    empty = {"slg": np.zeros((0, model.config.dim), np.float32), "opg": np.zeros((0, model.config.dim), np.float32)}
    parsed, where = [], []
    for index, (notation, text) in enumerate(texts):
        if not text:
            continue
        try:
            parsed.append(parse(text, notation))
            where.append(index)
        except ParseError:
            continue
    vectors = [empty] * len(texts)
    for index, vector in zip(where, embed(parsed, model)):
        vectors[index] = vector
    return vectors
