"""Readers of the formula files we train on, yielding raw formulas that `parse_formula` turns into graphs.

Formats (see /work/shared/data/README.md): plain LaTeX lists, ARQMath `visual_id_file.tsv`
(visual id, SLT string or None, LaTeX or None), `formulas_slt_string.tsv` (formula id, post id,
SLT string), topic files (`B.1 \\t latex` text or the official XML), and JSONL with a "latex" field.
"""
from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ml.evaluation.benchmark_files import Read, read_topic_latex, read_visual_ids
from ml.formula.tree import Tree

FORMULA_KINDS = ("latex", "slt")


@dataclass(frozen=True)
class CorpusFormula:
    text: str
    kind: str
    """One of FORMULA_KINDS: LaTeX, or a Tangent SLT string."""
    source: str = ""
    """Where it came from (file:id), for reports on skipped formulas."""


@dataclass(frozen=True)
class SltOnly:
    """A formula known only by its layout (no operator tree), shaped like a parse result."""

    slt: Tree
    opt: Tree | None = None


def parse_formula(formula: CorpusFormula):
    """Graphs (`.slt`, `.opt`) of a raw formula; raises the parser's ParseError (a ValueError) on failure."""
    if formula.kind == "slt":
        from ml.formula import tree_from_slt_string

        return SltOnly(tree_from_slt_string(formula.text))
    if formula.kind == "latex":
        from ml.formula import parse_latex

        return parse_latex(formula.text)
    raise ValueError(f"unknown formula kind {formula.kind!r}; expected one of {FORMULA_KINDS}")


def read_latex_lines(path: Path) -> Iterator[CorpusFormula]:
    for number, line in enumerate(_lines(path), 1):
        if line.strip():
            yield CorpusFormula(line.strip(), "latex", f"{path.name}:{number}")


def read_visual_id_file(path: Path) -> Iterator[CorpusFormula]:
    """LaTeX where the file has it, else the SLT string (1,443 judged visual ids only have that)."""
    for visual_id, record in _readable(read_visual_ids(path), path).items():
        if record.latex:
            yield CorpusFormula(record.latex, "latex", f"{path.name}:{visual_id}")
        else:
            yield CorpusFormula(record.slt, "slt", f"{path.name}:{visual_id}")


def read_slt_strings(path: Path) -> Iterator[CorpusFormula]:
    for line in _lines(path):
        formula_id, _, slt = line.split("\t", 2)
        yield CorpusFormula(slt, "slt", f"{path.name}:{formula_id}")


def read_topics(path: Path) -> Iterator[CorpusFormula]:
    """Query formulas of a topic file: `id <tab> latex` lines, or `<Latex>` elements of the official XML."""
    if path.suffix == ".xml":
        for number, match in enumerate(re.finditer(r"<Latex>(.*?)</Latex>", path.read_text(), re.S), 1):
            yield CorpusFormula(html.unescape(match.group(1)).strip(), "latex", f"{path.name}:{number}")
        return
    for topic, latex in _readable(read_topic_latex(path), path).items():
        yield CorpusFormula(latex, "latex", f"{path.name}:{topic}")


def _readable(read: Read, path: Path) -> dict:
    """What a benchmark-file reader read; a malformed line is an error, not a silently skipped formula."""
    if read.problems:
        first = read.problems[0]
        raise ValueError(f"{path}: {len(read.problems)} malformed line(s); line {first.line_no}: {first.reason}")
    return read.value


def read_jsonl(path: Path, field: str = "latex") -> Iterator[CorpusFormula]:
    for number, line in enumerate(_lines(path), 1):
        if line.strip():
            yield CorpusFormula(json.loads(line)[field], "latex", f"{path.name}:{number}")


READERS = {"latex": read_latex_lines, "visual_ids": read_visual_id_file, "slt_strings": read_slt_strings,
           "topics": read_topics, "jsonl": read_jsonl}


def read_corpus(path: str | Path, fmt: str) -> Iterator[CorpusFormula]:
    """Formulas of one file in a named format (one of READERS)."""
    if fmt not in READERS:
        raise ValueError(f"unknown corpus format {fmt!r}; expected one of {sorted(READERS)}")
    return READERS[fmt](Path(path))


def read_corpus_spec(spec: str) -> Iterator[CorpusFormula]:
    """Formulas of a `PATH:FORMAT` command-line spec; ValueError names what is wrong with it."""
    path, _, fmt = spec.rpartition(":")
    if not path or not Path(path).is_file():
        raise ValueError(f"--corpus {spec!r}: give an existing PATH:FORMAT")
    return read_corpus(path, fmt)


def unique(formulas: Iterable[CorpusFormula]) -> Iterator[CorpusFormula]:
    """Each (kind, text) once: the paper trains on visually unique formulas."""
    seen: set[tuple[str, str]] = set()
    for formula in formulas:
        key = (formula.kind, formula.text)
        if key not in seen:
            seen.add(key)
            yield formula


def _lines(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8", newline="") as handle:
        for line in handle:
            yield line.rstrip("\r\n")
