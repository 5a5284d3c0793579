"""Tolerant readers for the line-oriented benchmark files: TREC qrels and runs, topic LaTeX, visual-id tables.

Every reader returns a `Read`: the records it could parse plus a `Problem` for each line it could not. A bad
line is never fatal and never dropped without a trace, because the third-party files mix separators, CRLF
endings and float grades, and a silent skip would quietly change every metric computed from them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from ml.evaluation.ranking import Qrels, Run, rank_by_score

T = TypeVar("T")


@dataclass(frozen=True)
class Problem:
    """A record that was not read: `line_no` is 1-based (for JSON files, the 1-based entry number)."""

    line_no: int
    reason: str


@dataclass
class Read(Generic[T]):
    value: T
    problems: list[Problem] = field(default_factory=list)


@dataclass(frozen=True)
class VisualIdRecord:
    """One judged ARQMath-1 visual id: its Tangent-S SLT string and/or its (whitespace-free) LaTeX."""

    visual_id: str
    slt: str | None
    latex: str | None


def data_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line_no, line) for non-blank lines; splits on \\n only (LaTeX may hold other Unicode line breaks)."""
    for line_no, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if line.strip():
            yield line_no, line


def _parse_lines(text: str, parse_line: Callable[[str], tuple[str, str | None, object]], into: dict) -> Read:
    """Run `parse_line` over each line; it returns (key, subkey, value) or raises ValueError with the reason."""
    read = Read(into)
    for line_no, line in data_lines(text):
        try:
            key, subkey, value = parse_line(line)
        except ValueError as error:
            read.problems.append(Problem(line_no, str(error)))
            continue
        bucket = into.setdefault(key, {}) if subkey is not None else into
        slot = subkey if subkey is not None else key
        if slot in bucket:
            read.problems.append(Problem(line_no, f"duplicate entry for {key} {subkey or ''}".rstrip()))
            continue
        bucket[slot] = value
    return read


def _fields(line: str, count: int, what: str) -> list[str]:
    parts = line.split()
    if len(parts) != count:
        raise ValueError(f"expected {count} fields ({what}), found {len(parts)}")
    return parts


def _qrels_line(line: str) -> tuple[str, str, int]:
    topic, _, doc, grade = _fields(line, 4, "topic iteration doc relevance")
    try:
        value = float(grade)
    except ValueError:
        raise ValueError(f"relevance {grade!r} is not a number") from None
    if not value.is_integer():
        raise ValueError(f"relevance {grade!r} is not a whole grade")
    return topic, doc, int(value)


def parse_qrels(text: str) -> Read[Qrels]:
    """TREC qrels `topic 0 doc rel` (TAB or SPACE separated; `2.0` reads as 2). A repeated pair keeps the first."""
    return _parse_lines(text, _qrels_line, {})


def _run_line(line: str) -> tuple[str, str, tuple[int, float]]:
    topic, _, doc, rank, score, _tag = _fields(line, 6, "topic Q0 doc rank score tag")
    try:
        return topic, doc, (int(rank), float(score))
    except ValueError:
        raise ValueError(f"rank {rank!r} or score {score!r} is not a number") from None


def parse_run(text: str) -> Read[Run]:
    """TREC run `topic Q0 doc rank score tag`, ordered by score as trec_eval does (the rank column is ignored)."""
    read = _parse_lines(text, _run_line, {})
    read.value = {
        topic: rank_by_score((doc, score) for doc, (_, score) in docs.items()) for topic, docs in read.value.items()
    }
    return read


def format_run(run: Run, tag: str) -> str:
    """The run as TREC lines; `repr` keeps every float's digits so a re-read run ranks identically."""
    if not tag or any(c.isspace() for c in tag):
        raise ValueError(f"run tag must be one non-empty word, got {tag!r}")
    return "".join(
        f"{topic} Q0 {doc} {rank} {float(score)!r} {tag}\n"
        for topic, ranked in run.items()
        for rank, (doc, score) in enumerate(ranked, start=1)
    )


def _topic_line(line: str) -> tuple[str, None, str]:
    topic, tab, latex = line.partition("\t")
    if not tab or not topic.strip() or not latex.strip():
        raise ValueError("expected `topic <TAB> latex`")
    return topic.strip(), None, latex.strip()


def parse_topic_latex(text: str) -> Read[dict[str, str]]:
    """ARQMath Task 2 query files: `B.1 \\t f(x)=…` (2020 pads the tab with spaces) → {topic: latex}."""
    return _parse_lines(text, _topic_line, {})


def _none_or(value: str) -> str | None:
    return None if value.strip() in ("None", "") else value


def parse_visual_id_line(line: str) -> tuple[str, None, VisualIdRecord]:
    """One `visual_id_file.tsv` line; ValueError says what is wrong with it."""
    parts = line.split("\t")
    if len(parts) != 3:
        raise ValueError(f"expected 3 TAB-separated fields (visual_id, slt, latex), found {len(parts)}")
    visual_id, slt, latex = parts[0].strip(), _none_or(parts[1]), _none_or(parts[2])
    if not visual_id.isdigit():
        raise ValueError(f"visual id {visual_id!r} is not an integer")
    if slt is None and latex is None:
        raise ValueError("neither an SLT string nor LaTeX")
    return visual_id, None, VisualIdRecord(visual_id, slt, latex)


def parse_visual_ids(text: str) -> Read[dict[str, VisualIdRecord]]:
    """`visual_id_file.tsv` (`id \\t SLT-or-None \\t latex-or-None`, some lines CRLF) → {visual id: record}."""
    return _parse_lines(text, parse_visual_id_line, {})


def read_text(path: str | Path) -> str:
    """UTF-8 text with line endings untouched (the parsers handle CRLF themselves)."""
    with open(path, encoding="utf-8", newline="") as handle:
        return handle.read()


def read_qrels(path: str | Path) -> Read[Qrels]:
    return parse_qrels(read_text(path))


def read_run(path: str | Path) -> Read[Run]:
    return parse_run(read_text(path))


def write_run(path: str | Path, run: Run, tag: str) -> None:
    Path(path).write_text(format_run(run, tag), encoding="utf-8")


def read_topic_latex(path: str | Path) -> Read[dict[str, str]]:
    return parse_topic_latex(read_text(path))


def read_visual_ids(path: str | Path) -> Read[dict[str, VisualIdRecord]]:
    return parse_visual_ids(read_text(path))
