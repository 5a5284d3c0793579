"""What expanding a LaTeX document writes: its text, in pieces that a failed macro use takes back, and the
verbatim material set aside, both counted against the document's characters (budgets.CharacterBudget)."""
from __future__ import annotations

from corpora.documents import latex_macros as defs
from corpora.documents.budgets import CharacterBudget


class ExpandedText:
    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.verbatim: list[str] = []
        self.chars = CharacterBudget()
        """Also spent on the files the expander reads (see latex_includes)."""

    def write(self, text: str) -> None:
        if not text:
            return
        if text[0].isalpha() and self.pieces and defs.ends_in_control_word(self.pieces[-1][-40:]):
            text = " " + text  # `\def\<{\langle}` then `\<x`: TeX's token `\langle`, then x; not `\langlex`
        self.pieces.append(text)
        self.chars.spend("text produced", len(text))

    def set_aside(self, verbatim: str) -> int:
        """Keeps `verbatim` apart from the text; its index, for the marker that stands for it."""
        self.verbatim.append(verbatim)
        self.chars.spend("verbatim set aside", len(verbatim))
        return len(self.verbatim) - 1

    def take_back(self, length: int) -> None:
        """Drops what was written after the first `length` pieces (a macro use undone)."""
        del self.pieces[length:]

    @property
    def text(self) -> str:
        return "".join(self.pieces)
