"""JSONL posts, `{"id", "title", "body", "url", "tags"}` a line: the formulas are the ones found in the body."""
from __future__ import annotations

from ml.data.records import IndexRecord, PostRecord, SourceFormula, json_line
from ml.extraction import extract_formulas


def post_record(text: str, number: int) -> IndexRecord:
    data = json_line(text)
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    if not isinstance(data.get("id"), (str, int)) or str(data["id"]).strip() == "":
        raise ValueError("missing or empty 'id'")
    body = str(data.get("body") or "")
    post = PostRecord(str(data["id"]), str(data.get("title") or ""), body, str(data.get("url") or ""),
                      _tags(data.get("tags")))
    formulas = tuple(SourceFormula(f.latex, "latex", i, f.start, f.end)
                     for i, f in enumerate(extract_formulas(body)))
    return IndexRecord(number, post, formulas)


def _tags(value) -> list[str]:
    if isinstance(value, str):  # MSE style "<algebra><limits>"
        return [tag for tag in value.replace("<", " ").replace(">", " ").split() if tag]
    return [str(tag) for tag in value] if isinstance(value, list) else []
