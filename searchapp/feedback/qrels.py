"""Relevance judgements derived from feedback on formulas, as TREC qrels: `query_id 0 formula_id grade`.

An explicit judgement beats clicks and the latest judgement wins (each person holds one per query and formula; of
several people's, the latest): relevant → 2, not relevant → 0, clicked but never judged → 1. Query ids are a short
hash of the query text, so the same query gets the same id in every export.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from searchapp.models import Feedback

GRADES: dict[str, int] = {Feedback.Kind.RELEVANT: 2, Feedback.Kind.NOT_RELEVANT: 0, Feedback.Kind.CLICK: 1}


def query_id(query: str) -> str:
    return "Q" + hashlib.sha256(query.encode()).hexdigest()[:10]


def judgements(feedback=None, corpus: str | None = None) -> dict[str, dict[int, int]]:
    """{query: {formula_id: grade}} from the feedback rows (optionally only formulas of `corpus`)."""
    rows = (Feedback.objects.all() if feedback is None else feedback).filter(formula__isnull=False)
    if corpus:
        rows = rows.filter(formula__corpus__name=corpus)
    grades: dict[str, dict[int, int]] = {}
    judged: set[tuple[str, int]] = set()
    for query, formula_id, kind in rows.order_by("-created_at", "-id").values_list("query", "formula_id", "kind"):
        key = (query, formula_id)
        if key in judged:
            continue
        if kind != Feedback.Kind.CLICK:
            judged.add(key)
            grades.setdefault(query, {})[formula_id] = GRADES[kind]
        else:
            grades.setdefault(query, {}).setdefault(formula_id, GRADES[kind])
    return grades


def write_qrels(grades: dict[str, dict[int, int]], out: Path) -> Path:
    """Write the qrels to `out` and the id → query map beside it (`<out>.queries.tsv`); return that map's path."""
    lines, queries = [], []
    for query in sorted(grades, key=query_id):
        qid = query_id(query)
        queries.append(f"{qid}\t{_one_line(query)}\n")
        lines += [f"{qid} 0 {formula_id} {grade}\n" for formula_id, grade in sorted(grades[query].items())]
    out.write_text("".join(lines))
    side = out.with_name(out.name + ".queries.tsv")
    side.write_text("".join(queries))
    return side


def _one_line(query: str) -> str:
    # Tabs and newlines would break the TSV; LaTeX treats them as spaces anyway.
    return " ".join(query.split())
