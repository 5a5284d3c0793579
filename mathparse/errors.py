"""Errors of the formula parsers: each carries a human-readable message, a source position and a stable kind."""
from __future__ import annotations

ERROR_KINDS = (
    "empty",
    "too_long",
    "too_deep",
    "too_large",
    "unbalanced_braces",
    "unbalanced_delimiters",
    "unbalanced_environment",
    "missing_argument",
    "invalid_slt_string",
    "slt_string",
    "invalid_mathml",
)


class ParseError(ValueError):
    """A formula could not be parsed.

    `pos` is the 0-based character offset into the input where the problem was found (None when it has no
    single place); `kind` is one of ERROR_KINDS, stable enough for callers and the API to branch on.
    """

    def __init__(self, message: str, pos: int | None, kind: str) -> None:
        super().__init__(message if pos is None else f"{message} (at {pos})")
        self.message = message
        self.pos = pos
        self.kind = kind

    def __reduce__(self):  # keeps the error picklable across Celery / multiprocessing boundaries
        return (type(self), (self.message, self.pos, self.kind))


MAX_INPUT_CHARS = 5_000
"""Twice the longest real LaTeX formula seen (2,556 characters); keeps any input well inside 100 ms."""
MAX_MARKUP_CHARS = 40_000
"""For the verbose forms (SLT strings, MathML): twice the longest real SLT string seen (17,047 characters),
and more than the SLT string of any LaTeX input that is short enough to be accepted."""
MAX_DEPTH = 100
"""Nesting deeper than this is refused rather than built: real formulas stay far below it."""


def check_length(text: str, limit: int = MAX_INPUT_CHARS) -> None:
    """Refuse empty and oversized inputs before any parsing work is spent on them."""
    if len(text) > limit:
        raise ParseError(f"input has {len(text)} characters, more than {limit}", limit, "too_long")
    if not text.strip():
        raise ParseError("input is empty", 0, "empty")
