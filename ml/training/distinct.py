"""The distinct formulas of several corpora: each formula parsed once and kept under its visual key.

Training on visually distinct formulas (the key indexing stores, `mathparse.visual_key`) keeps a formula
that a corpus repeats a thousand times from weighing a thousand times; the report says what each source
added, so a source that only repeats the others shows as such.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from mathparse import ParseError, to_slt_string, visual_key
from ml.training.corpus import CorpusFormula, parse_formula


@dataclass(frozen=True)
class KeyedFormula:
    notation: str
    text: str
    key: str
    source: str


@dataclass
class SourceReport:
    """What one corpus gave: formulas read and parsed, failures by parse error kind, keys no earlier source had."""

    name: str
    read: int = 0
    parsed: int = 0
    failed: Counter[str] = field(default_factory=Counter)
    new_keys: int = 0


def distinct(formulas: Iterable[CorpusFormula], report: SourceReport, seen: set[str]) -> Iterator[KeyedFormula]:
    """The formulas whose visual key is not in `seen` yet (adding it), counting into `report`."""
    for formula in formulas:
        report.read += 1
        try:
            key = visual_key(to_slt_string(parse_formula(formula).slt))
        except ParseError as error:
            report.failed[error.kind] += 1
            continue
        report.parsed += 1
        if key not in seen:
            seen.add(key)
            report.new_keys += 1
            yield KeyedFormula(formula.kind, formula.text, key, formula.source)
