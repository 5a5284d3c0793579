"""Tangent SLT strings as `formula_id post_id slt` (ARQMath's `formulas_slt_string.tsv`), one formula a line."""
from __future__ import annotations

from corpora.fields import tsv_columns
from corpora.records import MSE_URL, IndexRecord, PostRecord, SourceFormula


def slt_record(text: str, number: int) -> IndexRecord:
    formula_id, post_id, slt = tsv_columns(text, 3)
    if not formula_id.isdigit() or not post_id.isdigit():
        raise ValueError("formula id and post id must be integers")
    post = PostRecord(f"post-{post_id}", f"Math StackExchange post {post_id}", url=MSE_URL.format(kind="a", id=post_id))
    return IndexRecord(number, post, (SourceFormula(slt, "slt", int(formula_id)),))
