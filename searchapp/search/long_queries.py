"""Formulas longer than one search compares: their largest parts are searched, and the hits fused.

A person pastes a whole derivation or a long expansion, and a refusal taught them nothing. A formula whose tree has
more than MAX_QUERY_NODES nodes (the bound on the work of one search, kept as the bound on each part's) is cut along
its own layout (`largest_parts`): at its loosest operators (`,` and relations, then `+` and `−`, then products), in
two halves between its symbols where it has none, into what a lone symbol holds where it is one (a fraction's
numerator and denominator, a matrix's or an aligned derivation's cells), until each piece fits. Its MAX_PARTS largest
pieces are searched, each a query of its own, and a formula's fused score is the mean of its scores for the parts,
as a question's formulas score a post (`ml.retrieval.post_scores.formula_scores`): a formula holding every part ranks
first (the whole one too, where it was indexed with an operator tree: `mathparse.api.MAX_OPT_NODES`).
"""
from __future__ import annotations

import heapq
import time
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from corpora.documents.notation import OtherDefinitions
from mathparse import ParseError, slt_to_latex
from mathparse.operands import binding_power, is_infix, run
from mathparse.tree import Node, Tree, chain
from ml.retrieval.post_scores import formula_scores
from searchapp.search.query import (
    MAX_QUERY_NODES,
    Macros,
    Query,
    latex_from_unicode,
    parse_queries,
    parse_query,
    read_graphs,
)
from searchapp.search.ranking import DEFAULT_ORDER
from searchapp.search.results import SearchResults, best_hits

MAX_PARTS = 3
"""Parts searched in a long formula's place: each costs a search."""
SMALLEST_PART = 0.25
"""A part with fewer nodes than this share of the largest one's is left out: a lone `x` or `n` beside two long
lines says little of the formula, and its own exact matches would fill the list."""
PART_HITS = 50
"""Hits read per part before fusing (more when a later page needs them): a formula a little down every part's list
can still lead the fused one."""


def parse_formula(text: str, notation: str = "latex", macros: Macros | None = None,
                  others: OtherDefinitions | None = None) -> Query:
    """`parse_query`, except that a formula over MAX_QUERY_NODES becomes a query of its largest parts (`parts`), in
    LaTeX, read with the first reading of the same `macros`; it is refused (`too_large`) only when none of them can
    be read."""
    try:
        return parse_query(text, notation, macros, others)
    except ParseError as error:
        if error.kind != "too_large":
            raise
        refusal = error
    graphs, names = read_graphs(text, notation, macros)
    parts, _ = parse_queries([slt_to_latex(Tree(part, "slt")) for part in largest_parts(graphs.slt)])
    if not parts:
        raise refusal
    return Query(text, notation, {}, {}, np.zeros(0, dtype=np.int32), graphs, tuple(names),
                 latex_from_unicode(text, notation), tuple(parts))


def long_formula(query: Query) -> dict | None:
    """What the page and the API say of a long formula's search: `note`, in words; its `symbols`; the LaTeX of the
    `parts` searched. None for a formula searched whole."""
    if not query.parts or query.graphs is None:
        return None
    symbols = len(query.graphs.slt)
    searched = "its largest part was" if len(query.parts) == 1 else f"its {len(query.parts)} largest parts were"
    return {"note": f"Your formula is long ({symbols} symbols); {searched} searched", "symbols": symbols,
            "parts": [part.text for part in query.parts]}


def search_parts(formulas, query: Query, *, k: int = 10, offset: int = 0, fusion: str = DEFAULT_ORDER,
                 corpus: str | None = None, context: str = "") -> SearchResults:
    """The hits of a long formula's `query` among `formulas` (Formula's manager): each part searched as
    `formulas.search` does, their hits fused by the mean of their scores (a part's missing hit counts 0), the hit
    shown being the one of the part it scored best for (its alignment is to that part)."""
    started = time.perf_counter()
    found = [formulas.search(part, k=max(offset + k, PART_HITS), fusion=fusion, corpus=corpus, context=context)
             for part in query.parts]
    best = best_hits(found)
    ids = list(best)
    by_part = [{hit.formula_id: hit.score for hit in results.hits} for results in found]
    scores = formula_scores(np.arange(len(ids)), [np.array([scored.get(i, 0.0) for i in ids], dtype=np.float32)
                                                  for scored in by_part], len(ids))
    order = np.argsort(-scores, kind="stable")[offset:offset + k]
    hits = [replace(best[ids[i]], score=float(scores[i]), rank=rank) for rank, i in enumerate(order, start=offset + 1)]
    return SearchResults(query, found[0].fusion, hits, len(ids), (time.perf_counter() - started) * 1000)


def largest_parts(slt: Tree, limit: int = MAX_QUERY_NODES, count: int = MAX_PARTS) -> list[Node]:
    """The `count` largest sub-expressions of the layout tree `slt` with at most `limit` nodes, each once, largest
    first, none under SMALLEST_PART of the first: baselines of their own (`mathparse.operands.run`). Pieces are
    cut only while too large, largest first, so the first `count` that fit are the largest there are: a piece's
    own pieces are smaller than it. One pass over the tree sizes them all; nothing is parsed again."""
    cutter = _Cutter(slt)
    whole = _baseline(slt.root)
    queue = [(-cutter.size(whole), 0, whole)]
    parts: list[Node] = []  # Nodes compare by their whole sub-tree: a part found twice is searched once
    largest, pushed = 0, 1
    while queue and len(parts) < count:
        negative, _, piece = heapq.heappop(queue)
        if -negative > limit:
            for smaller in cutter.pieces(piece):
                heapq.heappush(queue, (-cutter.size(smaller), pushed, smaller))
                pushed += 1
        elif -negative < SMALLEST_PART * largest:
            break
        elif (part := run(piece[0], piece[-1])) not in parts:
            parts.append(part)
            largest = max(largest, -negative)
    return parts


class _Cutter:
    """Pieces of a layout tree: runs of symbols along one baseline, each with what hangs off them. A run too large is
    cut at its loosest operators (`,` and relations, then `+` and `−`, then products; at the one nearest its middle,
    so the pieces are as large as can be), else in two halves between its symbols; a lone symbol is opened: its
    scripts, numerator and denominator, radicand, a matrix's or an aligned derivation's cells."""

    def __init__(self, slt: Tree) -> None:
        subtree: dict[int, int] = {}
        for node in reversed(slt.nodes):  # pre-order reversed: children before their parents
            subtree[id(node)] = 1 + sum(subtree[id(child)] for _, child in node.children)
        self.weight = {id(node): 1 + sum(subtree[id(child)] for edge, child in node.children if edge not in "ne")
                       for node in slt.nodes}
        """Each node's weight: itself and what hangs off it, without its baseline's next symbols (`n`) and its
        table's next cells (`e`)."""

    def size(self, piece: tuple[Node, ...]) -> int:
        """The nodes of a piece's tree."""
        return sum(self.weight[id(node)] for node in piece)

    def pieces(self, piece: tuple[Node, ...]) -> list[tuple[Node, ...]]:
        """A piece cut in two (or opened), each smaller than it."""
        if len(piece) == 1:
            return self._opened(piece[0])
        infix = {i: binding_power(node.label) for i, node in enumerate(piece) if i and is_infix(node, piece[i - 1])}
        loosest = min((power for power in infix.values() if power is not None), default=None)
        cut = self._nearest_middle(piece, [i for i, power in infix.items() if power == loosest] or range(1, len(piece)))
        after = cut + 1 if cut in infix else cut  # an operator goes with neither side
        return [side for side in (piece[:cut], piece[after:]) if side]

    def _nearest_middle(self, piece: tuple[Node, ...], cuts: Sequence[int]) -> int:
        """Of the places `cuts`, the one nearest the middle of the piece's weight."""
        before, half, reached = [], self.size(piece) / 2, 0
        for node in piece:
            before.append(reached)
            reached += self.weight[id(node)]
        return min(cuts, key=lambda i: abs(before[i] - half))

    @staticmethod
    def _opened(node: Node) -> list[tuple[Node, ...]]:
        """What a lone symbol holds: each baseline hanging off it, a table's (or a fenced list's) cells one by one."""
        opened = []
        for edge, child in node.children:
            if edge in "ne":
                continue
            cells = chain(child, "e") if node.label.startswith("M!") and edge == "w" else [child]
            opened += [_baseline(cell) for cell in cells]
        return opened


def _baseline(first: Node) -> tuple[Node, ...]:
    return tuple(chain(first, "n"))
