"""Formula search: parse → embed → nearest centroids per query node → shortlist → exact maxsim → fusion → top k.

The candidate stage asks pgvector's HNSW index, for every query node vector, for its `probes`
nearest codebook centroids (per representation); the formulas on those centroids' posting lists are
ranked by approximate maxsim (`ml.retrieval.shortlist`), and the best `shortlist_size` of each
representation are scored exactly from their stored node matrices (DESIGN.md §4).
Scores are maxsim / |Q|, a mean cosine in [-1, 1].
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import psycopg
from django.db import connection, transaction
from django.db.models.expressions import RawSQL

from ml.formula import parse_latex
from ml.retrieval.fusion import FUSIONS, fuse
from ml.retrieval.maxsim import maxsim, maxsim_stacked
from ml.retrieval.shortlist import shortlist
from searchapp.embedding import embed_graphs
from searchapp.models import Corpus, Formula
from searchapp.postings import nearest_centroids, posting_lists
from searchapp.vectors import decode_matrix, decode_stacked

REPRESENTATIONS = ("slg", "opg")
MAX_K = 1000
PROBES = 8
"""Nearest centroids asked per query node."""
SHORTLIST_SIZE = 400
"""Formulas per representation scored exactly (measured with `bench_search`: see docs/scaling.md)."""


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
                    probes: int = PROBES, shortlist_size: int = SHORTLIST_SIZE, slg_weight: float = 0.5,
                    formulas=None) -> SearchResults:
    """Top `k` formulas after `offset`; raises `ml.formula.ParseError` for a query that cannot be parsed."""
    if fusion not in FUSIONS:
        raise ValueError(f"unknown fusion {fusion!r}; choose one of {', '.join(FUSIONS)}")
    started = time.perf_counter()
    graphs = parse_latex(latex)
    query = embed_graphs([graphs])[0]
    formulas = Formula.objects.all() if formulas is None else formulas
    if corpus:
        formulas = formulas.filter(corpus__name=corpus)
    # A deep page needs at least as many exactly scored formulas as it shows.
    size = max(shortlist_size, offset + k)
    ids = _all_if_at_most(formulas, size) or candidate_ids(query, probes, size, corpus_ids(corpus))
    rows = _matrices(formulas.filter(pk__in=id_array(ids)))
    parts = score_candidates(query, rows)
    fused = fuse(parts["slg"], parts["opg"], fusion, slg_weight) if rows else np.zeros(0)
    order = np.argsort(-fused, kind="stable")[offset:offset + min(k, MAX_K)]
    hits = _hits(order, rows, fused, parts, offset, graphs, query)
    return SearchResults(latex, fusion, hits, len(rows), (time.perf_counter() - started) * 1000)


def _matrices(formulas) -> list[tuple[int, bytes, bytes]]:
    """(id, slg blob, opg blob) rows, read in psycopg's binary format: Django's text protocol would
    hex-encode ~2 MB of node matrices per query (measured: ~10 ms more for 530 candidates)."""
    sql, params = formulas.values_list("id", "slg_matrix", "opg_matrix").query.sql_with_params()
    connection.ensure_connection()
    with psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(sql, params, binary=True)
        return cursor.fetchall()


def id_array(ids) -> RawSQL:
    """`pk__in` operand as one array parameter: Django would send hundreds of separate parameters
    (measured: ~3 ms more per query for 700 candidates)."""
    return RawSQL("SELECT unnest(%s::bigint[])", [list(ids)])


def corpus_ids(corpus: str | None) -> list[int] | None:
    if not corpus:
        return None
    return list(Corpus.objects.filter(name=corpus).values_list("id", flat=True))


def _all_if_at_most(formulas, size: int) -> list[int] | None:
    """Every formula of a collection no larger than a shortlist: then exact scoring is as cheap, and complete."""
    ids = list(formulas.values_list("id", flat=True)[:size + 1])
    return ids if len(ids) <= size else None


def candidate_ids(query: dict, probes: int, shortlist_size: int, corpora: list[int] | None) -> set[int]:
    """The shortlisted formulas of both representations."""
    found: set[int] = set()
    with transaction.atomic(), connection.cursor() as cursor:
        for representation in REPRESENTATIONS:
            if len(query[representation]):
                nearest = nearest_centroids(cursor, representation, query[representation], probes)
                lists = posting_lists(cursor, representation, sorted({c for _, c, _ in nearest}), corpora)
                found.update(shortlist(nearest, lists, shortlist_size).tolist())
    return found


def score_candidates(query: dict, rows: list[tuple]) -> dict[str, np.ndarray]:
    """Exact maxsim / |Q| of every candidate, per representation."""
    parts = {}
    for column, representation in ((1, "slg"), (2, "opg")):
        q = query[representation]
        stacked, sizes = decode_stacked([row[column] for row in rows])
        # int8 storage can lift a perfect match's mean cosine a little past 1 (≤ 0.004); a cosine it stays
        parts[representation] = np.clip(maxsim_stacked(q, stacked, sizes) / max(len(q), 1), -1.0, 1.0)
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
