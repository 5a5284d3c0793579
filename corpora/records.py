"""What indexing reads from a corpus file: one `IndexRecord` (a post and its formulas) or `RecordError` per line.

`read_lines` is the loop every line-oriented corpus format shares; the formats differ only in the function
that turns one line into a record. A bad line is reported, never dropped, and never stops the file.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from corpora.tolerant import MalformedFile
from mathparse import NOTATIONS

MSE_URL = "https://math.stackexchange.com/{kind}/{id}"
MAX_ID_CHARS = 200
"""The length of `Post.source_id`."""
MAX_POSITION = 2**31 - 1
"""The largest `Occurrence.position` Postgres stores (an ARQMath formula id becomes the position)."""
MAX_RECORD_BYTES = 1_000_000
"""A line (a JSONL post, a TSV row) is refused above this size, read no further than that: one 50 MB line took a
worker from 0.6 to 7.2 GB (its text, JSON, post and formulas in memory at once), and real posts have 1–50 KB."""


@dataclass(frozen=True)
class PostRecord:
    source_id: str
    title: str = ""
    body: str = ""
    url: str = ""
    tags: list[str] = field(default_factory=list)
    parent: str = ""
    """The source id of the question a post answers."""


@dataclass(frozen=True)
class SourceFormula:
    text: str
    notation: str
    """One of NOTATIONS."""
    position: int
    start: int = 0
    end: int = 0
    anchor: str = ""
    """The name a document gave the formula (LaTeX `\\label{eq:x}`), or empty."""
    number: str = ""
    """The number its document prints for it (`2.14`), or empty."""

    def __post_init__(self) -> None:
        if self.notation not in NOTATIONS:
            raise ValueError(f"unknown notation {self.notation!r}; choose one of {', '.join(NOTATIONS)}")


@dataclass(frozen=True)
class IndexRecord:
    line: int
    post: PostRecord
    formulas: tuple[SourceFormula, ...]


@dataclass(frozen=True)
class RecordError:
    line: int
    message: str
    kind: str = ""
    """A stable name for what went wrong, when the reader gives one (a document's problem:
    `corpora.documents.problems.KINDS`)."""
    file: str | None = None
    file_line: int | None = None
    """Where a document's problem is: its file and the line in it, when it has one (`line` numbers the record in
    its job)."""

    def to_json(self) -> dict:
        """What a job keeps of it: its line and message, and its kind, file and file line when it has a kind."""
        kept: dict = {"line": self.line, "message": self.message}
        if self.kind:
            kept.update(kind=self.kind, file=self.file, file_line=self.file_line)
        return kept


Item = IndexRecord | RecordError
LineParser = Callable[[str, int], IndexRecord]
"""Turns one decoded, non-blank line (and its 1-based number) into a record; ValueError says why it cannot."""


def json_line(text: str) -> object:
    """One JSONL line's value; a ValueError names the JSON error and its column, which the caller puts at the line."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"invalid JSON: {error.msg} at column {error.colno}") from None


def read_lines(path: Path, parse_line: LineParser, skip_header: bool = False) -> Iterator[Item]:
    """Each non-blank line of `path` through `parse_line`, after the checks every format shares."""
    with open(path, "rb") as handle:
        for number, raw in enumerate(_bounded_lines(handle), start=1):
            if skip_header and number == 1:
                continue
            if raw is None:
                yield RecordError(number, f"longer than {MAX_RECORD_BYTES:,} bytes; a line is refused above that")
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
                yield _record(parse_line, text, number)


def _bounded_lines(handle) -> Iterator[bytes | None]:
    """Each line of a binary file, or None for one longer than MAX_RECORD_BYTES (its rest read and dropped a
    limit at a time, so no more than that is ever held)."""
    while raw := handle.readline(MAX_RECORD_BYTES + 1):
        if len(raw) <= MAX_RECORD_BYTES or raw.endswith(b"\n"):  # `MAX_RECORD_BYTES` bytes and their newline
            yield raw
            continue
        while (rest := handle.readline(MAX_RECORD_BYTES)) and not rest.endswith(b"\n"):
            pass
        yield None


def checked(items: Iterable[Item], path: str | Path) -> list[IndexRecord]:
    """Every record of a file, or MalformedFile naming its bad lines: for readers that cannot skip a line."""
    items = list(items)
    errors = [(item.line, item.message) for item in items if isinstance(item, RecordError)]
    if errors:
        raise MalformedFile(path, errors)
    return [item for item in items if isinstance(item, IndexRecord)]


def _record(parse_line: LineParser, text: str, number: int) -> Item:
    try:
        record = parse_line(text, number)
    except ValueError as error:
        return RecordError(number, str(error))
    problem = _unstorable(record)
    return RecordError(number, problem) if problem else record


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
