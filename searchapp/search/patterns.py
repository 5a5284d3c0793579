"""Query variables at search time: the formulas that hold the query exactly, whatever stands in its variables'
places, rank before the others, and say what each variable stood for (`mathparse.query_variables`). A match is
labelled so only once its bindings, put into the query, give back the formula or one of its sub-expressions
(`mathparse.substitution`): the page must never say "matches your pattern with a = …" of what does not.

Only a candidate holding all the query's layout terms (its symbols and symbol pairs; none spans a variable) can
hold the query, so only those are read and matched, best first, until a page's worth hold it: the first page of
`\\frac{1}{\\qvar{x}}` need not parse the 2,800 fractions among its candidates.
"""
from __future__ import annotations

import numpy as np

from mathparse import ParseError, tree_from_slt_string
from mathparse.query_variables import match
from mathparse.slt_latex import slt_to_latex
from mathparse.substitution import reproduces
from mathparse.tree import Tree
from ml.retrieval.structure import KINDS, kinds_of
from searchapp.search.query import Query
from searchapp.search.scoring import Scored
from searchapp.sql import id_array

LAYOUT_KINDS = [KINDS.index("pair"), KINDS.index("symbol")]
MIN_READ = 50
"""Candidates read and matched at a time, at least."""
Bindings = list[tuple[str, str]]
"""(variable name, the LaTeX it stands for), by name."""


def pattern_matches(query: Query, scored: Scored, scores: np.ndarray, needed: int, formulas) -> dict[int, Bindings]:
    """Candidate index → its bindings, for the best-scored `needed` candidates of `scored` (rows of the `formulas`
    queryset) that hold the query exactly; empty for a query without variables."""
    if query.graphs is None or not any(query.variables.values()):
        return {}
    possible = _holding_all(query.terms[np.isin(kinds_of(query.terms), LAYOUT_KINDS)], scored)
    possible = possible[np.argsort(-scores[possible], kind="stable")]
    found: dict[int, Bindings] = {}
    step = max(2 * needed, MIN_READ)
    for start in range(0, len(possible), step):
        chunk = possible[start:start + step]
        layouts = dict(formulas.filter(pk__in=id_array([scored.ids[i] for i in chunk])).values_list("id", "slt_string"))
        for i in chunk:
            try:
                candidate = tree_from_slt_string(layouts[scored.ids[i]])
            except ParseError:  # a row stored by an older parser: ranked by similarity alone
                continue
            bound = match(query.graphs.slt, candidate)
            if bound is not None and reproduces(query.graphs.slt, bound, candidate):
                found[int(i)] = [(name, slt_to_latex(Tree(node, "slt"))) for name, node in sorted(bound.items())]
                if len(found) == needed:
                    return found
    return found


def _holding_all(wanted: np.ndarray, scored: Scored) -> np.ndarray:
    candidates = scored.candidates
    held = np.concatenate(([0], np.cumsum(np.isin(candidates.terms, wanted))))
    ends = np.cumsum(candidates.term_counts)
    return np.flatnonzero(held[ends] - held[ends - candidates.term_counts] == len(wanted))
