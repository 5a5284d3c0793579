"""ARQMath formula TSV (`latex_representation_v3` and its samples): `id post_id thread_id type visual_id formula`.

The first line is a header; each formula is indexed under its post, at its formula id.
"""
from __future__ import annotations

from corpora.fields import tsv_columns
from corpora.records import MSE_URL, IndexRecord, PostRecord, SourceFormula


def formula_record(text: str, number: int) -> IndexRecord:
    formula_id, post_id, thread_id, kind, _visual_id, latex = tsv_columns(text, 6)
    if not formula_id.isdigit() or not post_id.isdigit():
        raise ValueError("formula id and post id must be integers")
    url_kind = "q" if kind in ("question", "title") else "a"
    post = PostRecord(post_id, f"Math StackExchange {kind} {post_id} (thread {thread_id})",
                      url=MSE_URL.format(kind=url_kind, id=post_id))
    return IndexRecord(number, post, (SourceFormula(latex, "latex", int(formula_id)),))
