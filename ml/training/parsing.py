"""The training formulas parsed once into (SLT, OPT) pairs, optionally kept in an on-disk cache.

Parsing 350,000 formulas takes minutes; reading them back from the cache takes seconds. A cache file is
named by a hash of everything its graphs depend on: the formulas (notation and text, in order),
`max_nodes`, the parse function's name and the source of the parser (every module of `mathparse`, and
`corpus.py`, where `parse_formula` lives). So a different corpus or an edited parser never reads stale
graphs; the cost is that any edit there, even to a comment, parses again.
"""
from __future__ import annotations

import hashlib
import logging
import os
import pickle
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import mathparse
from mathparse.cycle_collection import cycle_collection_paused
from mathparse.tree import Node, Tree
from ml.embed import FormulaGraphs
from ml.training import corpus
from ml.training.corpus import CorpusFormula

log = logging.getLogger(__name__)

Graphs = tuple[Tree, Tree | None]
FlatTree = tuple[str, list[str], list[tuple[int, int, str]]]
"""A tree as kind, pre-order labels and (parent, child, edge) triples: pickling nested `Node`s recurses
once per level and fails on a deep baseline, this form does not recurse at all."""

PARSER_SOURCES = (*sorted(Path(mathparse.__file__).parent.glob("*.py")), Path(corpus.__file__))


def load_graphs(formulas: Iterable[CorpusFormula], parse: Callable[[CorpusFormula], FormulaGraphs],
                max_nodes: int, cache: str | Path | None = None) -> tuple[list[Graphs], Counter[str]]:
    """Every usable formula's (SLT, OPT) and the skipped ones counted by reason, from `cache` when it has them."""
    if cache is None:
        with cycle_collection_paused():
            return _parse_all(formulas, parse, max_nodes)
    formulas = list(formulas)
    path = Path(cache) / f"{cache_key(formulas, parse, max_nodes)}.pickle"
    began = time.perf_counter()
    if path.exists():
        with cycle_collection_paused():
            graphs, skipped = _read(path)
        log.info("read %d parsed graphs from %s in %.1f s", len(graphs), path, time.perf_counter() - began)
        return graphs, skipped
    log.info("parsing %d formulas; the graphs will be cached in %s", len(formulas), path)
    with cycle_collection_paused():
        graphs, skipped = _parse_all(formulas, parse, max_nodes)
    _write(path, graphs, skipped)
    log.info("parsed %d formulas in %.1f s", len(formulas), time.perf_counter() - began)
    return graphs, skipped


def _parse_all(formulas: Iterable[CorpusFormula], parse: Callable[[CorpusFormula], FormulaGraphs],
               max_nodes: int) -> tuple[list[Graphs], Counter[str]]:
    """Parse every formula once; failures and oversized formulas are counted, never fatal."""
    skipped: Counter[str] = Counter()
    graphs = [graphs for _, graphs in usable_graphs(formulas, parse, max_nodes, skipped)]
    return graphs, skipped


def usable_graphs(formulas: Iterable[CorpusFormula], parse: Callable[[CorpusFormula], FormulaGraphs],
                  max_nodes: int, skipped: Counter[str]) -> Iterator[tuple[CorpusFormula, Graphs]]:
    """Each formula that parses to an SLT within `max_nodes` (and an OPT within it, if any), with its graphs;
    the others are counted into `skipped` by reason."""
    for formula in formulas:
        try:
            parsed = parse(formula)
        except (ValueError, RecursionError) as error:  # ParseError is a ValueError
            skipped[getattr(error, "kind", type(error).__name__)] += 1
            continue
        slt, opt = parsed.slt, parsed.opt
        if slt is None:
            skipped["no_slt"] += 1
        elif len(slt) > max_nodes or (opt is not None and len(opt) > max_nodes):
            skipped["too_large"] += 1
        else:
            yield formula, (slt, opt)


def cache_key(formulas: list[CorpusFormula], parse: Callable[[CorpusFormula], FormulaGraphs], max_nodes: int) -> str:
    name = f"{getattr(parse, '__module__', '')}.{getattr(parse, '__qualname__', type(parse).__name__)}"
    digest = hashlib.sha256(f"{name}\0{max_nodes}\0".encode())
    for source in PARSER_SOURCES:
        digest.update(source.read_bytes())
    for formula in formulas:
        digest.update(f"\0{formula.kind}\0{formula.text}".encode())
    return digest.hexdigest()


def _write(path: Path, graphs: list[Graphs], skipped: Counter[str]) -> None:
    """Through a temporary file and a rename, so an interrupted write never leaves a truncated cache entry."""
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    flat = [(_flatten(slt), None if opt is None else _flatten(opt)) for slt, opt in graphs]
    with open(staging, "wb") as handle:
        pickle.dump((flat, dict(skipped)), handle, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(staging, path)


def _read(path: Path) -> tuple[list[Graphs], Counter[str]]:
    with open(path, "rb") as handle:
        flat, skipped = pickle.load(handle)
    return [(_unflatten(slt), None if opt is None else _unflatten(opt)) for slt, opt in flat], Counter(skipped)


def _flatten(tree: Tree) -> FlatTree:
    return tree.kind, tree.labels, list(tree.edges)


def _unflatten(flat: FlatTree) -> Tree:
    kind, labels, edges = flat
    children: list[list[tuple[str, int]]] = [[] for _ in labels]
    for parent, child, edge in edges:  # in pre-order, so each parent's children arrive in their order
        children[parent].append((edge, child))
    nodes: dict[int, Node] = {}
    for index in reversed(range(len(labels))):  # a child's index is always above its parent's
        nodes[index] = Node(labels[index], tuple((edge, nodes[child]) for edge, child in children[index]))
    return Tree(nodes[0], kind)
