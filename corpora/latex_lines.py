"""Plain LaTeX, one formula a line: each line is its own post, named by its line number."""
from __future__ import annotations

from corpora.records import IndexRecord, PostRecord, SourceFormula


def latex_record(text: str, number: int) -> IndexRecord:
    latex = text.strip()
    return IndexRecord(number, PostRecord(f"line-{number}", f"line {number}", latex),
                       (SourceFormula(latex, "latex", 0, 0, len(latex)),))
