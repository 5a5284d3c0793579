"""Corpus file readers for indexing. Each yields `IndexRecord`s or `RecordError`s in file order:
a bad line is reported, never dropped, and never stops the file.

Formats: `jsonl` posts `{"id","title","body","url","tags"}` (formulas found in the body); `arqmath`
formula TSV `id post_id thread_id type visual_id formula` (with header); `visual_ids`, the
ARQMath-1 `visual_id_file.tsv` (`visual_id, SLT string or None, LaTeX or None`); `slt_tsv`,
Tangent SLT strings as `formula_id post_id slt` (ARQMath's `formulas_slt_string.tsv`); `latex`,
one formula per line.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ml.evaluation.benchmark_files import parse_visual_id_line
from ml.extraction import extract_formulas

FORMATS = ("jsonl", "arqmath", "visual_ids", "slt_tsv", "latex")
MSE_URL = "https://math.stackexchange.com/{kind}/{id}"
MAX_ID_CHARS = 200
"""The length of `Post.source_id`."""
MAX_POSITION = 2**31 - 1
"""The largest `Occurrence.position` Postgres stores (an ARQMath formula id becomes the position)."""


@dataclass(frozen=True)
class PostRecord:
    source_id: str
    title: str = ""
    body: str = ""
    url: str = ""
    tags: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SourceFormula:
    text: str
    notation: str  # "latex" or "slt" (a Tangent SLT string)
    position: int
    start: int = 0
    end: int = 0


@dataclass(frozen=True)
class IndexRecord:
    line: int
    post: PostRecord
    formulas: tuple[SourceFormula, ...]


@dataclass(frozen=True)
class RecordError:
    line: int
    message: str


Item = IndexRecord | RecordError


def read_records(path: Path, format: str) -> Iterator[Item]:
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; choose one of {', '.join(FORMATS)}")
    parse_line = {"jsonl": _jsonl_record, "arqmath": _arqmath_record,
                  "visual_ids": _visual_id_record, "slt_tsv": _slt_tsv_record, "latex": _latex_record}[format]
    yield from _read_lines(Path(path), parse_line, skip_header=format == "arqmath")


def count_records(path: Path, format: str) -> int:
    return sum(1 for _ in read_records(path, format))


def _read_lines(path: Path, parse_line: Callable[[str, int], Item], skip_header: bool) -> Iterator[Item]:
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if skip_header and number == 1:
                continue
            try:
                # utf-8-sig: a file saved with a byte-order mark must not hide it in its first record
                text = raw.decode("utf-8-sig" if number == 1 else "utf-8").rstrip("\r\n")
            except UnicodeDecodeError as error:
                yield RecordError(number, f"not UTF-8 (byte {error.start} of the line)")
                continue
            if "\x00" in text:  # Postgres text cannot hold it
                yield RecordError(number, f"NUL character at column {text.index(chr(0)) + 1}")
            elif text.strip():
                item = parse_line(text, number)
                problem = _unstorable(item) if isinstance(item, IndexRecord) else None
                yield RecordError(number, problem) if problem else item


def _unstorable(record: IndexRecord) -> str | None:
    """Why Postgres would refuse the record (a refused row would fail its whole chunk), or None."""
    post = record.post
    if len(post.source_id) > MAX_ID_CHARS:
        return f"id is longer than {MAX_ID_CHARS} characters"
    strings = (post.source_id, post.title, post.body, post.url, *post.tags, *(f.text for f in record.formulas))
    if any("\x00" in value for value in strings):  # from a JSON `\u0000`; a raw one is caught per line
        return "NUL character (\\u0000) in a string"
    too_far = [f.position for f in record.formulas if f.position > MAX_POSITION]
    return f"formula id {too_far[0]} is larger than {MAX_POSITION}" if too_far else None


def _jsonl_record(text: str, number: int) -> Item:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return RecordError(number, f"invalid JSON: {error.msg} at column {error.colno}")
    if not isinstance(data, dict):
        return RecordError(number, "expected a JSON object")
    if not isinstance(data.get("id"), (str, int)) or str(data["id"]).strip() == "":
        return RecordError(number, "missing or empty 'id'")
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


def _arqmath_record(text: str, number: int) -> Item:
    columns = text.split("\t")
    if len(columns) != 6:
        return RecordError(number, f"expected 6 tab-separated columns, found {len(columns)}")
    formula_id, post_id, thread_id, kind, _visual_id, latex = columns
    if not formula_id.isdigit() or not post_id.isdigit():
        return RecordError(number, "formula id and post id must be integers")
    url_kind = "q" if kind in ("question", "title") else "a"
    post = PostRecord(post_id, f"Math StackExchange {kind} {post_id} (thread {thread_id})",
                      url=MSE_URL.format(kind=url_kind, id=post_id))
    return IndexRecord(number, post, (SourceFormula(latex, "latex", int(formula_id)),))


def _visual_id_record(text: str, number: int) -> Item:
    try:
        visual_id, _, record = parse_visual_id_line(text)
    except ValueError as error:
        return RecordError(number, str(error))
    formula = SourceFormula(record.latex, "latex", 0) if record.latex else SourceFormula(record.slt, "slt", 0)
    return IndexRecord(number, PostRecord(visual_id, f"ARQMath-1 visual id {visual_id}"), (formula,))


def _slt_tsv_record(text: str, number: int) -> Item:
    columns = text.split("\t")
    if len(columns) != 3:
        return RecordError(number, f"expected 3 tab-separated columns, found {len(columns)}")
    formula_id, post_id, slt = columns
    if not formula_id.isdigit() or not post_id.isdigit():
        return RecordError(number, "formula id and post id must be integers")
    post = PostRecord(f"post-{post_id}", f"Math StackExchange post {post_id}", url=MSE_URL.format(kind="a", id=post_id))
    return IndexRecord(number, post, (SourceFormula(slt, "slt", int(formula_id)),))


def _latex_record(text: str, number: int) -> Item:
    latex = text.strip()
    return IndexRecord(number, PostRecord(f"line-{number}", f"line {number}", latex),
                       (SourceFormula(latex, "latex", 0, 0, len(latex)),))
