"""JSONL formulas, `{"latex": "…"}` a line (other keys ignored): a plain list of formulas, as training reads it."""
from __future__ import annotations

import json

from ml.data.records import IndexRecord, PostRecord, SourceFormula


def latex_field_record(text: str, number: int) -> IndexRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"invalid JSON: {error.msg} at column {error.colno}") from None
    if not isinstance(data, dict) or not isinstance(data.get("latex"), str):
        raise ValueError("expected a JSON object with a 'latex' string")
    return IndexRecord(number, PostRecord(f"line-{number}", f"line {number}"), (SourceFormula(data["latex"], "latex", 0),))
