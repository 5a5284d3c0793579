"""Formula search: parse → embed → HNSW candidates per query node → exact maxsim → fusion → top k.

The candidate stage asks pgvector, for every query node vector, for its `candidates_per_node`
nearest stored node vectors (per representation); the formulas owning them are scored exactly
from their stored node matrices (DESIGN.md §4). Scores are maxsim / |Q|, a mean cosine in [-1, 1].
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from django.db import connection, transaction

from ml.formula import parse_latex
from ml.retrieval.fusion import FUSIONS, fuse
from ml.retrieval.maxsim import maxsim, maxsim_many
from searchapp.embedding import embed_graphs
from searchapp.models import Corpus, Formula
from searchapp.vectors import decode_matrix, vector_literal

REPRESENTATIONS = ("slg", "opg")
MAX_K = 1000


@dataclass(frozen=True)
class Alignment:
    """Query node i aligned to result node j with cosine `similarity`, per representation."""

    query_labels: list[str]
    result_labels: list[str]
    pairs: list[tuple[int, int, float]]


@dataclass
class SearchHit:
    formula_id: int
    latex: str
    corpus: str
    score: float
    parts: dict[str, float]
    rank: int
    alignment: dict[str, Alignment] = field(default_factory=dict)


@dataclass
class SearchResults:
    query: str
    fusion: str
    hits: list[SearchHit]
    candidates: int
    elapsed_ms: float


def search_formulas(latex: str, k: int = 10, offset: int = 0, fusion: str = "max", corpus: str | None = None,
                    candidates_per_node: int = 20, slg_weight: float = 0.5, formulas=None) -> SearchResults:
    """Top `k` formulas after `offset`; raises `ml.formula.ParseError` for a query that cannot be parsed."""
    if fusion not in FUSIONS:
        raise ValueError(f"unknown fusion {fusion!r}; choose one of {', '.join(FUSIONS)}")
    started = time.perf_counter()
    graphs = parse_latex(latex)
    query = embed_graphs([graphs])[0]
    formulas = Formula.objects.all() if formulas is None else formulas
    if corpus:
        formulas = formulas.filter(corpus__name=corpus)
    ids = candidate_ids(query, candidates_per_node, corpus_ids(corpus))
    rows = list(formulas.filter(pk__in=ids).values_list("id", "slg_matrix", "opg_matrix"))
    parts = score_candidates(query, rows)
    fused = fuse(parts["slg"], parts["opg"], fusion, slg_weight) if rows else np.zeros(0)
    order = np.argsort(-fused, kind="stable")[offset:offset + min(k, MAX_K)]
    hits = _hits(order, rows, fused, parts, offset, graphs, query)
    return SearchResults(latex, fusion, hits, len(rows), (time.perf_counter() - started) * 1000)


def corpus_ids(corpus: str | None) -> list[int] | None:
    if not corpus:
        return None
    return list(Corpus.objects.filter(name=corpus).values_list("id", flat=True))


def candidate_ids(query: dict, per_node: int, corpora: list[int] | None) -> set[int]:
    """Formulas owning the nearest stored node vectors of any query node, over both representations."""
    found: set[int] = set()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL hnsw.ef_search = %s", [max(40, per_node * 2)])
        if corpora is not None:
            # A corpus filter would otherwise cut the HNSW result list short (pgvector ≥ 0.8).
            cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        for representation in REPRESENTATIONS:
            # Nodes with equal neighbourhoods share a vector: ask the index once per distinct vector.
            vectors = np.unique(query[representation].astype(np.float16), axis=0)
            if len(vectors):
                found.update(_nearest_formulas(cursor, representation, vectors, per_node, corpora))
    return found


def _nearest_formulas(cursor, representation: str, vectors: np.ndarray, per_node: int, corpora) -> list[int]:
    """For each query vector: the `per_node` distinct formulas owning its nearest stored node vectors.

    The inner LIMIT on postings keeps a pattern shared by thousands of formulas from flooding the candidates.
    """
    where = "WHERE corpus_id = ANY(%s)" if corpora is not None else ""
    sql = (
        "SELECT DISTINCT n.formula_id FROM unnest(%s::halfvec[]) AS q(embedding) CROSS JOIN LATERAL ("
        " SELECT p.formula_id FROM ("
        f"  SELECT id, embedding <=> q.embedding AS distance FROM searchapp_{representation}pattern {where}"
        "   ORDER BY embedding <=> q.embedding LIMIT %s) nearest"
        " CROSS JOIN LATERAL ("
        f"  SELECT formula_id FROM searchapp_{representation}posting WHERE pattern_id = nearest.id LIMIT %s) p"
        " GROUP BY p.formula_id ORDER BY min(nearest.distance) LIMIT %s) n"
    )
    params = [[vector_literal(v) for v in vectors]] + ([corpora] if corpora is not None else []) + [per_node] * 3
    cursor.execute(sql, params)
    return [row[0] for row in cursor.fetchall()]


def score_candidates(query: dict, rows: list[tuple]) -> dict[str, np.ndarray]:
    """Exact maxsim / |Q| of every candidate, per representation."""
    parts = {}
    for column, representation in ((1, "slg"), (2, "opg")):
        q = query[representation]
        matrices = [decode_matrix(row[column]) for row in rows]
        parts[representation] = maxsim_many(q, matrices) / max(len(q), 1)
    return parts


def _hits(order, rows, fused, parts, offset, graphs, query) -> list[SearchHit]:
    by_id = Formula.objects.select_related("corpus").in_bulk([rows[i][0] for i in order])
    hits = []
    for rank, index in enumerate(order, start=offset + 1):
        formula = by_id[rows[index][0]]
        hits.append(SearchHit(
            formula_id=formula.pk, latex=formula.latex, corpus=formula.corpus.name, score=float(fused[index]),
            parts={r: float(parts[r][index]) for r in REPRESENTATIONS}, rank=rank,
            alignment=_alignment(graphs, query, formula, rows[index]),
        ))
    return hits


def _alignment(graphs, query: dict, formula: Formula, row: tuple) -> dict[str, Alignment]:
    result_labels = formula.node_labels
    aligned = {}
    for column, representation, tree_name in ((1, "slg", "slt"), (2, "opg", "opt")):
        query_tree, labels = getattr(graphs, tree_name), result_labels[tree_name]
        matrix = decode_matrix(row[column])
        if query_tree is None or labels is None or len(labels) != len(matrix):
            continue
        scored = maxsim(query[representation], matrix)
        aligned[representation] = Alignment(
            query_tree.labels, labels,
            [(i, int(j), round(float(s), 4)) for i, (j, s) in enumerate(zip(scored.alignment, scored.similarities))],
        )
    return aligned
