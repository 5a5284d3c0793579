"""JSONL posts, `{"id", "title", "body", "url", "tags", "parent"}` a line: the formulas are the ones found in the body.

`parent` (optional) is the id of the question a post answers, as a Q&A site's export gives it; indexing links the
answer to its question when the question is in the corpus (written before the answer, or indexed before).
"""
from __future__ import annotations

from corpora.records import IndexRecord, PostRecord, SourceFormula, json_line
from mathparse.extraction import extract_formulas


def post_record(text: str, number: int) -> IndexRecord:
    data = json_line(text)
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    if not isinstance(data.get("id"), (str, int)) or str(data["id"]).strip() == "":
        raise ValueError("missing or empty 'id'")
    body = str(data.get("body") or "")
    parent = data.get("parent")
    if parent is not None and not isinstance(parent, (str, int)):
        raise ValueError("'parent' must be a post id (a string or an integer)")
    post = PostRecord(str(data["id"]), str(data.get("title") or ""), body, str(data.get("url") or ""),
                      _tags(data.get("tags")), "" if parent is None else str(parent).strip())
    formulas = tuple(SourceFormula(f.latex, "latex", i, f.start, f.end)
                     for i, f in enumerate(extract_formulas(body)))
    return IndexRecord(number, post, formulas)


def _tags(value) -> list[str]:
    if isinstance(value, str):  # MSE style "<algebra><limits>"
        return [tag for tag in value.replace("<", " ").replace(">", " ").split() if tag]
    return [str(tag) for tag in value] if isinstance(value, list) else []
