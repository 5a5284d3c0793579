"""The ranker's features of each candidate formula against a query: few, each a ratio a reader can interpret.

Dense: the SLG and OPG maxsim means (`ml.retrieval.maxsim`). Structural, from the term sets of
`ml.retrieval.structure`: recall (share of the query's terms the candidate has) and precision (share of the
candidate's terms the query has) of Tangent-S symbol pairs and of Approach0 leaf paths (exact, and with
variables and numbers unified), the largest shared
sub-expression as a share of the query's operator tree, the Jaccard overlap of operator sets, the size
ratio, and an idf-weighted recall of symbols. The idf is taken over the query's candidates, which are the
collection a ranking decides among, so no corpus-wide statistics are kept.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ml.retrieval.structure import KINDS, kinds_of, sizes_of

FEATURES = ("slg", "opg", "pair_recall", "pair_precision", "path_recall", "path_precision", "unified_path_recall",
            "unified_path_precision", "common_subtree", "operator_jaccard", "size_ratio", "symbol_idf_recall")
FEATURE_HELP = {
    "slg": "layout-tree embedding match",
    "opg": "operator-tree embedding match",
    "pair_recall": "query symbol pairs found",
    "pair_precision": "result symbol pairs in the query",
    "path_recall": "query operator paths found",
    "path_precision": "result operator paths in the query",
    "unified_path_recall": "query shape found (any variables)",
    "unified_path_precision": "result shape in the query (any variables)",
    "common_subtree": "largest shared sub-expression",
    "operator_jaccard": "same operators",
    "size_ratio": "similar size",
    "symbol_idf_recall": "rare query symbols found",
}
_PAIR, _PATH, _SUBTREE, _OPERATOR, _SYMBOL, _UNIFIED_PATH = (KINDS.index(kind) for kind in KINDS)


@dataclass(frozen=True)
class Candidates:
    """Everything the features read of a query's candidates, stacked: candidate c owns terms[starts[c]:…]."""

    terms: np.ndarray
    """(Σ n_c,) int32 structure terms, each candidate's sorted and distinct."""
    term_counts: np.ndarray
    """(n,) terms per candidate."""
    sizes: np.ndarray
    """(n,) SLT node counts."""
    slg: np.ndarray
    opg: np.ndarray


def feature_matrix(query_terms: np.ndarray, query_size: int, candidates: Candidates) -> np.ndarray:
    """(n_candidates, len(FEATURES)) float32, columns in FEATURES order."""
    query_terms = np.unique(query_terms)  # sorted, as the idf lookup needs
    n = len(candidates.sizes)
    owner = np.repeat(np.arange(n), candidates.term_counts)
    kinds = kinds_of(candidates.terms)
    shared = np.isin(candidates.terms, query_terms, assume_unique=False)
    query_kinds = np.bincount(kinds_of(query_terms), minlength=len(KINDS)).astype(np.float64)
    theirs = _per_kind(owner, kinds, n)
    common = _per_kind(owner[shared], kinds[shared], n)

    largest = np.zeros(n)
    subtrees = shared & (kinds == _SUBTREE)
    np.maximum.at(largest, owner[subtrees], sizes_of(candidates.terms[subtrees]))
    query_subtree_sizes = sizes_of(query_terms[kinds_of(query_terms) == _SUBTREE])
    operators_union = query_kinds[_OPERATOR] + theirs[:, _OPERATOR] - common[:, _OPERATOR]

    columns = {
        "slg": candidates.slg,
        "opg": candidates.opg,
        "pair_recall": _ratio(common[:, _PAIR], query_kinds[_PAIR]),
        "pair_precision": _ratio(common[:, _PAIR], theirs[:, _PAIR]),
        "path_recall": _ratio(common[:, _PATH], query_kinds[_PATH]),
        "path_precision": _ratio(common[:, _PATH], theirs[:, _PATH]),
        "unified_path_recall": _ratio(common[:, _UNIFIED_PATH], query_kinds[_UNIFIED_PATH]),
        "unified_path_precision": _ratio(common[:, _UNIFIED_PATH], theirs[:, _UNIFIED_PATH]),
        "common_subtree": _ratio(largest, query_subtree_sizes.max() if len(query_subtree_sizes) else 0),
        "operator_jaccard": _ratio(common[:, _OPERATOR], operators_union),
        "size_ratio": _ratio(np.minimum(candidates.sizes, query_size), np.maximum(candidates.sizes, query_size)),
        "symbol_idf_recall": _symbol_idf_recall(query_terms, candidates.terms, owner, kinds, shared, n),
    }
    return np.column_stack([np.asarray(columns[name], dtype=np.float32) for name in FEATURES]) if n else (
        np.zeros((0, len(FEATURES)), dtype=np.float32))


def _per_kind(owner: np.ndarray, kinds: np.ndarray, n: int) -> np.ndarray:
    """(n, len(KINDS)) term counts per candidate and kind."""
    return np.bincount(owner * len(KINDS) + kinds, minlength=n * len(KINDS)).reshape(n, len(KINDS)).astype(np.float64)


def _ratio(numerator, denominator) -> np.ndarray:
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.broadcast_to(np.asarray(denominator, dtype=np.float64), numerator.shape)
    return np.divide(numerator, denominator, out=np.zeros_like(numerator), where=denominator > 0)


def _symbol_idf_recall(query_terms, terms, owner, kinds, shared, n) -> np.ndarray:
    """Σ idf of the query symbols a candidate has / Σ idf of all query symbols; idf = ln((n + 1) / (df + 1)) + 1."""
    query_symbols = query_terms[kinds_of(query_terms) == _SYMBOL]
    if not len(query_symbols) or not n:
        return np.zeros(n)
    symbols = shared & (kinds == _SYMBOL)
    index = np.searchsorted(query_symbols, terms[symbols])  # query terms are sorted
    df = np.bincount(index, minlength=len(query_symbols))
    idf = np.log((n + 1) / (df + 1)) + 1
    found = np.bincount(owner[symbols], weights=idf[index], minlength=n)
    return found / idf.sum()
