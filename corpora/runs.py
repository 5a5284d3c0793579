"""TREC runs, `topic Q0 doc rank score tag` a line: read as trec_eval ranks them, and written back losslessly."""
from __future__ import annotations

from pathlib import Path

from corpora.fields import whitespace_fields
from corpora.ranking import Run, rank_by_score
from corpora.tolerant import Read, parse_keyed_lines


def _run_line(line: str) -> tuple[str, str, tuple[int, float]]:
    topic, _, doc, rank, score, _tag = whitespace_fields(line, 6, "topic Q0 doc rank score tag")
    try:
        return topic, doc, (int(rank), float(score))
    except ValueError:
        raise ValueError(f"rank {rank!r} or score {score!r} is not a number") from None


def parse_run(text: str) -> Read[Run]:
    """Each topic's docs ordered by score as trec_eval does (the rank column is ignored)."""
    read = parse_keyed_lines(text, _run_line)
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


def write_run(path: str | Path, run: Run, tag: str) -> None:
    Path(path).write_text(format_run(run, tag), encoding="utf-8")
