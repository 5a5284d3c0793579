"""Context pairs: a formula and the most alike other formula of its Math StackExchange thread.

Relevance asks for closeness between *different* formulas, which pairing a formula with its own views never
teaches. A thread gives related formulas without any judgment (Pfahler & Morik pair equations by their
context), but a random pair of a thread's formulas is often unrelated (`n` beside an integral). So each formula
is paired with the thread-mate its initial, untrained encoders find most alike, leaving out renderings of the
same formula (similarity above HIGH) and strangers (below LOW). Measured on the development pools (models/default/
README.md): these pairs lifted MAP′ where random thread pairs did not.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from mathparse import to_slt_string, visual_key
from mathparse.tree import Tree
from ml.embed import FormulaGraphs, embed_trees
from ml.models.encoders import NodeEncoderModel
from ml.retrieval.maxsim import maxsim_stacked
from ml.training.corpus import CorpusFormula
from ml.training.parsing import Graphs, usable_graphs

LOW, HIGH = 0.3, 0.97
"""Partner similarity bounds: mean over the anchor's nodes of their best cosine, the better of SLG and OPG."""
MIN_NODES = 3
"""Smaller anchors (`n`, `x_i`) have near-identical partners in every thread and teach nothing."""

Pair = tuple[Graphs, Graphs]


def thread_graphs(formulas: Iterable[CorpusFormula], parse: Callable[[CorpusFormula], FormulaGraphs],
                  max_nodes: int) -> list[list[Graphs]]:
    """Each thread's distinct formulas (by visual key) as graphs; a thread is a page name's question id.

    Formulas that do not parse or exceed `max_nodes` are left out, as in training; threads left with fewer than two
    formulas give no pair and are dropped.
    """
    threads: dict[str, dict[str, Graphs]] = defaultdict(dict)
    for formula, graphs in usable_graphs(formulas, parse, max_nodes, Counter()):
        thread = formula.source.partition("_")[0]  # `<questionId>_<answerId>.html:<formula id>`
        threads[thread].setdefault(visual_key(to_slt_string(graphs[0])), graphs)
    return [list(graphs.values()) for graphs in threads.values() if len(graphs) >= 2]


def nearest_partners(threads: Sequence[Sequence[Graphs]], model: NodeEncoderModel) -> list[Pair]:
    """(anchor, partner) for every anchor of MIN_NODES+ nodes whose most alike thread-mate lies in [LOW, HIGH]."""
    pairs: list[Pair] = []
    for thread in threads:
        similarity = np.maximum(_similarities([slt for slt, _ in thread], model, "slt"),
                                _similarities([opt for _, opt in thread], model, "opt"))
        np.fill_diagonal(similarity, -np.inf)
        similarity[similarity > HIGH] = -np.inf
        for anchor, row in enumerate(similarity):
            partner = int(row.argmax())
            if len(thread[anchor][0]) >= MIN_NODES and row[partner] >= LOW:
                pairs.append((thread[anchor], thread[partner]))
    return pairs


def _similarities(trees: Sequence[Tree | None], model: NodeEncoderModel, kind: str) -> np.ndarray:
    """(n, n): row a, column b = mean over a's nodes of their best cosine among b's nodes; 0 where a tree is missing."""
    matrices = embed_trees(list(trees), model, kind)
    sizes = np.array([len(matrix) for matrix in matrices])
    scores = np.zeros((len(trees), len(trees)), dtype=np.float32)
    present = np.flatnonzero(sizes)
    if len(present) < 2:
        return scores
    stacked = np.concatenate([matrices[i] for i in present])  # (Σ nodes, d)
    for anchor in present:
        scores[anchor, present] = maxsim_stacked(matrices[anchor], stacked, sizes[present]) / sizes[anchor]
    return scores
