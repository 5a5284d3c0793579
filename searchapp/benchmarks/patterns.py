"""Query variables measured without judgments (`manage.py bench_patterns`).

A symbol of an indexed formula with its scripts or parts (`\\frac{1}{n^2}`, `x^{2k}`) becomes a pattern when one
part is cut into a query variable (`\\frac{1}{\\qvar{x}}`). Every formula of the corpus holding the pattern exactly
(`mathparse.query_variables.match`, checked over all of them) is a right answer. The top 10 of the search with the
variable is compared with the top 10 when a letter is typed in its place, as a user had to before, and so is the
time each search took. Each hit the search labels as matching is checked by what its page shows: its bindings, read
back from their LaTeX and put into the pattern, must give the formula or one of its sub-expressions
(`mathparse.substitution`); the report gives the share that do, which must be 1.
"""
from __future__ import annotations

import random
import time

import numpy as np

from mathparse import ParseError, parse, to_slt_string, tree_from_slt_string
from mathparse.query_variables import match
from mathparse.substitution import reproduces
from mathparse.tree import Node, Tree
from ml.evaluation.bootstrap import mean_interval
from searchapp.models import Formula
from searchapp.search.query import parse_query

PARTS = ("a", "b", "o", "u", "w")
"""The layout edges whose whole content a variable replaces: scripts, over / under, within (a root, a fence)."""
MODES = {"variable": "W!x", "letter": "V!x"}
K = 10


def patterns(trees: list[Tree], count: int, seed: int) -> list[tuple[Node, int]]:
    """`count` (symbol with its scripts and parts, which part to cut) of distinct formulas, seeded; each a pattern
    its formula holds (not `\\xrightarrow{\\qvar{x}}`, an operator, nor `(\\qvar{x})` cut from `(a, b)`)."""
    rng = random.Random(seed)
    order = list(range(len(trees)))
    rng.shuffle(order)
    chosen = []
    for index in order:
        heads = [node for node in trees[index].nodes if any(edge in PARTS for edge, _ in node.children)]
        if not heads:
            continue
        chosen_head = rng.choice(heads)
        head = Node(chosen_head.label, tuple(child for child in chosen_head.children if child[0] != "n"))
        part = rng.choice([i for i, (edge, _) in enumerate(head.children) if edge in PARTS])
        if match(Tree(with_part(head, part, MODES["variable"]), "slt"), trees[index]) is None:
            continue
        chosen.append((head, part))
        if len(chosen) == count:
            break
    return chosen


def with_part(head: Node, part: int, label: str) -> Node:
    return Node(head.label, tuple((edge, Node(label) if i == part else child) for i, (edge, child) in enumerate(head.children)))


def benchmark(corpus: str, queries: int, seed: int = 0, **search_options) -> dict:
    rows = Formula.objects.filter(corpus__name=corpus).values_list("visual_key", "slt_string")
    trees = {}
    for key, slt in rows.iterator():
        try:
            trees[key] = tree_from_slt_string(slt)
        except ParseError:
            continue
    holders_counts: list[int] = []
    recalls: dict[str, list[float]] = {mode: [] for mode in MODES}
    milliseconds: dict[str, list[float]] = {mode: [] for mode in MODES}
    labelled: list[bool] = []  # per hit labelled as matching: whether its bindings give it back
    for head, part in patterns(list(trees.values()), queries, seed):
        pattern = Tree(with_part(head, part, MODES["variable"]), "slt")
        holders = {key for key, tree in trees.items() if match(pattern, tree) is not None}
        holders_counts.append(len(holders))
        for mode, label in MODES.items():
            query = parse_query(to_slt_string(Tree(with_part(head, part, label), "slt")), "slt")
            started = time.perf_counter()
            hits = Formula.objects.search(query, k=K, corpus=corpus, **search_options).hits
            milliseconds[mode].append((time.perf_counter() - started) * 1000)
            recalls[mode].append(sum(hit.formula.visual_key in holders for hit in hits) / min(K, len(holders)))
            labelled += [_shown_truly(pattern, hit.bindings, trees[hit.formula.visual_key]) for hit in hits if hit.bindings]
    report: dict = {"corpus": corpus, "formulas": len(trees), "queries": len(holders_counts)}
    if not holders_counts:
        return report
    report["holders_median"] = float(np.median(holders_counts))
    for mode in MODES:
        interval = mean_interval(recalls[mode])
        report[mode] = {"holders_in_top10": [round(interval.mean, 3), round(interval.lo, 3), round(interval.hi, 3)],
                        "p50_ms": round(float(np.percentile(milliseconds[mode], 50)), 1),
                        "p95_ms": round(float(np.percentile(milliseconds[mode], 95)), 1)}
    report["p50_ratio_variable_to_letter"] = round(report["variable"]["p50_ms"] / report["letter"]["p50_ms"], 2)
    report["pattern_hits"] = len(labelled)
    report["pattern_hits_truly_matching"] = round(sum(labelled) / len(labelled), 4) if labelled else None
    return report


def _shown_truly(pattern: Tree, bindings: list[tuple[str, str]], formula: Tree) -> bool:
    """Whether the bindings a hit shows, read back from their LaTeX, put into the pattern give the formula or one of
    its sub-expressions."""
    try:
        bound = {name: parse(latex, "latex").slt.root for name, latex in bindings}
    except ParseError:
        return False
    return reproduces(pattern, bound, formula)
