"""Tolerant reading of whole files: what a file held, plus a `Problem` for each line that could not be read.

A bad line is never fatal and never dropped without a trace: the third-party files mix separators, CRLF
endings and float grades, and a silent skip would quietly change every metric computed from them. A caller
that cannot use part of a file asks for `Read.checked`, which turns the problems into one `MalformedFile`.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Problem:
    """A record that was not read: `line_no` is 1-based (for JSON files, the 1-based entry number)."""

    line_no: int
    reason: str


class MalformedFile(ValueError):
    """A file with lines that could not be read, for callers that need all of it; names the first bad line."""

    def __init__(self, path: str | Path, lines: list[tuple[int, str]]) -> None:
        line_no, reason = lines[0]
        super().__init__(f"{path}: {len(lines)} malformed line(s); line {line_no}: {reason}")
        self.path, self.lines = path, lines


@dataclass
class Read(Generic[T]):
    value: T
    problems: list[Problem] = field(default_factory=list)

    def checked(self, path: str | Path) -> T:
        """The value, or MalformedFile when any line of `path` could not be read."""
        if self.problems:
            raise MalformedFile(path, [(problem.line_no, problem.reason) for problem in self.problems])
        return self.value


def read_text(path: str | Path) -> str:
    """UTF-8 text with line endings untouched (the parsers handle CRLF themselves)."""
    with open(path, encoding="utf-8", newline="") as handle:
        return handle.read()


def data_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line_no, line) for non-blank lines; splits on \\n only (LaTeX may hold other Unicode line breaks)."""
    for line_no, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if line.strip():
            yield line_no, line


def parse_keyed_lines(text: str, parse_line: Callable[[str], tuple[str, str | None, object]],
                      skip_header: bool = False) -> Read[dict]:
    """Run `parse_line` over each line into a dict; it returns (key, subkey, value) or raises ValueError.

    With a subkey the value goes to `dict[key][subkey]`, else to `dict[key]`; a repeated entry keeps the first.
    """
    read: Read[dict] = Read({})
    for line_no, line in data_lines(text):
        if skip_header and line_no == 1:
            continue
        try:
            key, subkey, value = parse_line(line)
        except ValueError as error:
            read.problems.append(Problem(line_no, str(error)))
            continue
        bucket = read.value.setdefault(key, {}) if subkey is not None else read.value
        slot = subkey if subkey is not None else key
        if slot in bucket:
            read.problems.append(Problem(line_no, f"duplicate entry for {key} {subkey or ''}".rstrip()))
            continue
        bucket[slot] = value
    return read
