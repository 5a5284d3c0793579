"""ARQMath-1 `visual_id_file.tsv`: `visual_id \\t SLT-string-or-None \\t latex-or-None`, one judged visual id a line.

The content of every judged ARQMath-1 Task 2 visual id. Each has LaTeX (whitespace-free: it was the
deduplication key) or, for 1,443 of them, only a Tangent SLT string; some lines end in CRLF.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from corpora.fields import tsv_columns
from corpora.records import IndexRecord, PostRecord, SourceFormula
from corpora.tolerant import Read, parse_keyed_lines, read_text


@dataclass(frozen=True)
class VisualIdRecord:
    """One judged ARQMath-1 visual id: its Tangent-S SLT string and/or its (whitespace-free) LaTeX."""

    visual_id: str
    slt: str | None
    latex: str | None

    @property
    def formula(self) -> SourceFormula:
        """What every reader takes of it: the LaTeX where the file has it, else the SLT string."""
        if self.latex:
            return SourceFormula(self.latex, "latex", 0)
        if self.slt is None:
            raise ValueError(f"visual id {self.visual_id} has neither LaTeX nor an SLT string")
        return SourceFormula(self.slt, "slt", 0)


def parse_visual_id_line(line: str) -> tuple[str, None, VisualIdRecord]:
    """One line as (visual id, None, record); ValueError says what is wrong with it."""
    raw_id, raw_slt, raw_latex = tsv_columns(line, 3)
    visual_id, slt, latex = raw_id.strip(), _none_or(raw_slt), _none_or(raw_latex)
    if not visual_id.isdigit():
        raise ValueError(f"visual id {visual_id!r} is not an integer")
    if slt is None and latex is None:
        raise ValueError("neither an SLT string nor LaTeX")
    return visual_id, None, VisualIdRecord(visual_id, slt, latex)


def _none_or(value: str) -> str | None:
    return None if value.strip() in ("None", "") else value


def parse_visual_ids(text: str) -> Read[dict[str, VisualIdRecord]]:
    """The whole file → {visual id: record}; a repeated visual id is a problem."""
    return parse_keyed_lines(text, parse_visual_id_line)


def read_visual_ids(path: str | Path) -> Read[dict[str, VisualIdRecord]]:
    return parse_visual_ids(read_text(path))


def visual_id_record(text: str, number: int) -> IndexRecord:
    """One line as the post of its visual id, holding its one formula."""
    visual_id, _, record = parse_visual_id_line(text)
    return IndexRecord(number, PostRecord(visual_id, f"ARQMath-1 visual id {visual_id}"), (record.formula,))
