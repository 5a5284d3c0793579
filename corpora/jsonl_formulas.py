"""JSONL formulas, as training reads them: `{"latex": "…"}` a line (other keys ignored), or the deduplicated
corpus `training_corpus --out` writes, `{"notation", "text", "key", "source"}` a line."""
from __future__ import annotations

import json

from corpora.records import IndexRecord, PostRecord, SourceFormula, json_line


def latex_field_record(text: str, number: int) -> IndexRecord:
    data = json_line(text)
    if not isinstance(data, dict) or not isinstance(data.get("latex"), str):
        raise ValueError("expected a JSON object with a 'latex' string")
    return IndexRecord(number, PostRecord(f"line-{number}", f"line {number}"), (SourceFormula(data["latex"], "latex", 0),))


def formula_line(notation: str, text: str, key: str, source: str) -> str:
    """One line of the deduplicated training corpus that `training_corpus --out` writes."""
    return json.dumps({"notation": notation, "text": text, "key": key, "source": source}, ensure_ascii=False)


def notation_field_record(text: str, number: int) -> IndexRecord:
    """A `formula_line` read back: the formula in its notation, the post named by its source."""
    data = json_line(text)
    if not isinstance(data, dict) or not all(isinstance(data.get(name), str) for name in ("notation", "text")):
        raise ValueError("expected a JSON object with 'notation' and 'text' strings")
    source = data["source"] if isinstance(data.get("source"), str) else f"line-{number}"
    formula = SourceFormula(data["text"], data["notation"], 0)  # an unknown notation is a ValueError
    return IndexRecord(number, PostRecord(source, f"line {number}"), (formula,))
