"""What the document reader could not read, as values: each problem names its file, its line when it has one, a
stable kind and a message, as `mathparse.ParseError` carries a position and a kind. Tests and the job report read
the fields; `str()` is the one line the job page and the API show: `file:line: message`, or `file: message` for a
problem without a line (a missing include, an unread delimiter pair in a Markdown section, an unreadable file).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

ProblemKind = Literal[
    "runaway-argument",
    "macro-loop",
    "macro-budget",
    "include-missing",
    "include-unreadable",
    "include-cycle",
    "unread-delimiters",
    "unreadable",
    "section-refused",
]
"""runaway-argument: a macro use (or a command such as `\\newcommand`) whose argument runs away or does not match
its definition; the use is left as written, the macro still expanded elsewhere.
macro-loop: a macro use read more than `latex_uses.MAX_USE_TOKENS`; the macro is no longer expanded.
macro-budget: the document's or its upload's macro tokens are spent; no macro is expanded after it.
include-missing / include-unreadable / include-cycle: an `\\input` (or its kin) names no file of the upload, a file
that cannot be read, or a file that is already being read.
unread-delimiters: a Markdown section's words still hold a formula delimiter pair (`\\[ … \\]`).
unreadable: a file that gives no document (binary, too large, damaged).
section-refused: a section too large for a post, or whose path leaves no room for its id."""
KINDS: tuple[ProblemKind, ...] = get_args(ProblemKind)


@dataclass(frozen=True)
class ReadProblem:
    file: str
    """The file the problem is in, relative to the upload (posix); for a macro use, the file it is written in."""
    line: int | None
    """1-based, or None when the problem has none."""
    kind: ProblemKind
    message: str
    """What went wrong, without the file and line."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown problem kind {self.kind!r}; choose one of {', '.join(KINDS)}")

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.message}"
