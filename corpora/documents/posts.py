"""What every reader of the package produces, and how it becomes posts: a document is a title and a list of
sections, each a heading and a run of pieces (text, paragraph breaks, formulas); a section becomes a post
whose body is its text with each inline formula written `$…$` and each display formula `$$…$$` as its own
paragraph, so the site's extractor finds them and KaTeX renders them with their words around.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from corpora.documents.problems import ReadProblem
from corpora.documents.renderable import renderable
from corpora.records import MAX_ID_CHARS, PostRecord, SourceFormula
from mathparse.extraction import MAX_FORMULA_CHARS

MAX_SECTION_BYTES = 1_000_000
"""A section whose body is longer than this (UTF-8) is refused: a RecordError instead of its post."""
TITLE_SEPARATOR = " › "
_CLOSING = tuple(".,;:!?)")
MAX_TITLE_CHARS = 500


@dataclass(frozen=True)
class Formula:
    text: str
    notation: str = "latex"
    display: bool = False
    anchor: str = ""
    """The name of its `\\label`, or empty."""
    shown: str = ""
    """What the post's text shows between the dollars when not `text`: the LaTeX of a MathML formula."""
    number: str = ""
    """The number its document prints for it, without parentheses (`2.14`), or empty."""


class Break:
    """A paragraph break."""


BREAK = Break()
Piece = str | Formula | Break


@dataclass(frozen=True)
class Unreadable:
    """A file that gives no document: its path and why (one line)."""

    file: str
    message: str


@dataclass
class Section:
    """A heading (empty for what comes before the first one) and what follows it, up to the next heading."""

    heading: str
    file: str
    """The file the heading is in, relative to what was indexed (posix)."""
    path: tuple[str, ...] = ()
    """The headings above this one and itself, for the post title."""
    pieces: list[Piece] = field(default_factory=list)


@dataclass
class Document:
    file: str
    title: str
    sections: list[Section] = field(default_factory=list)
    problems: list[ReadProblem] = field(default_factory=list)
    """What could not be read (a missing include, a looping macro), each reported as a RecordError."""
    files: dict[str, str] = field(default_factory=dict)
    """The files it was read from (path → sha256 of their bytes): it is unchanged while they are."""
    macros: dict[str, dict] = field(default_factory=dict)
    """The LaTeX macros it defines (name → `Macro.to_json()`), to read queries in its notation."""

    def section(self, heading: str, level: int, file: str) -> Section:
        """Starts a section at a heading of `level` (1 the highest) below the open ones."""
        above = self.sections[-1].path[:level - 1] if self.sections else ()
        section = Section(heading, file, (*above, *[""] * (level - 1 - len(above)), heading))
        self.sections.append(section)
        return section


@dataclass(frozen=True)
class PlannedDocument:
    """A document of an upload before it is read: its id (its main file), the files of the listing it covers,
    and how to read it. Indexing an upload again reads only the documents whose files changed."""

    path: str
    covers: tuple[str, ...]
    read: Callable[[], Document | Unreadable]


def body(pieces: list[Piece]) -> tuple[str, list[tuple[Formula, int, int]]]:
    """The text of a section's pieces, whitespace collapsed, and each formula with the offsets of its `$…$`."""
    paragraphs: list[tuple[str, list[tuple[Formula, int, int]]]] = []
    current: list[str] = []
    found: list[tuple[Formula, int, int]] = []
    length = 0

    def close() -> None:
        nonlocal current, found, length
        text = "".join(current).rstrip()
        if text:
            paragraphs.append((text, found))
        current, found, length = [], [], 0

    def add(text: str) -> None:
        nonlocal length
        if not current or current[-1].endswith(" "):
            text = text.lstrip(" ")
        if not text:
            return  # a space after a space: an empty piece would hide that the text ends with one
        if text[:1] in _CLOSING and current and current[-1].endswith(" ") and not current[-1].endswith("$ "):
            current[-1] = current[-1][:-1]  # `see \cite{x}.` → `see.`, not `see .`
            length -= 1
        current.append(text)
        length += len(text)

    for piece in pieces:
        if isinstance(piece, Break):
            close()
        elif isinstance(piece, Formula):
            if piece.display:
                close()
            latex = piece.shown or piece.text
            shown = f"$${latex}$$" if piece.display else f"${latex}$"
            if current and not piece.display and not current[-1].endswith((" ", "(", "[", "“", "‘")):
                add(" ")
            found.append((piece, length, length + len(shown)))
            current.append(shown)
            length += len(shown)
            if piece.display:
                close()
        else:
            for index, part in enumerate(re.split(r"\n[ \t]*\n\s*", piece)):
                if index:
                    close()
                if part := re.sub(r"\s+", " ", part).replace("$", r"\$"):
                    add(part)
    close()
    text, formulas, offset = [], [], 0
    for paragraph, inside in paragraphs:
        text.append(paragraph)
        formulas += [(formula, offset + start, offset + end) for formula, start, end in inside]
        offset += len(paragraph) + 2
    return "\n\n".join(text), formulas


def source_formulas(found: list[tuple[Formula, int, int]]) -> tuple[SourceFormula, ...]:
    return tuple(SourceFormula(formula.text, formula.notation, position, start, end, formula.anchor, formula.number)
                 for position, (formula, start, end) in enumerate(found))


def shown_formula(text: str) -> str | None:
    """A formula's text as a post carries it (whitespace collapsed; LaTeX with the commands KaTeX lacks written
    as ones it has, see renderable; MathML as it is), or None when it is empty. One longer than a formula may be
    stays, for indexing to report as a formula error."""
    text = " ".join(text.split())
    if not text.startswith("<math") and len(text) <= MAX_FORMULA_CHARS:
        text = renderable(text)
    return text or None


def slug(title: str) -> str:
    """`Eigenvalues of $A$` → `eigenvalues-of-a`: lowercase letters and digits joined by hyphens."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-")


class SourceIds:
    """Unique source ids within a document: `file#slug`, `file#slug-2` on a repeat, at most MAX_ID_CHARS."""

    def __init__(self) -> None:
        self._seen: set[str] = set()

    def new(self, file: str, heading: str) -> str:
        """ValueError if the file's path alone leaves no room for a section's name."""
        if len(file) > MAX_ID_CHARS - 12:
            raise ValueError(f"the path is longer than {MAX_ID_CHARS - 12} characters, too long for a post id")
        if not heading:
            base = file
        else:
            base = f"{file}#{slug(heading)[:MAX_ID_CHARS - len(file) - 6].rstrip('-') or 'section'}"
        candidate, number = base, 1
        while candidate in self._seen:
            number += 1
            candidate = f"{base}-{number}"
        self._seen.add(candidate)
        return candidate


def post(document: Document, section: Section, ids: SourceIds) -> tuple[PostRecord, tuple[SourceFormula, ...]] | None:
    """The post of a section (None when its body is empty); ValueError if its body is over MAX_SECTION_BYTES."""
    text, found = body(section.pieces)
    if not text:
        return None
    if len(text.encode()) > MAX_SECTION_BYTES:
        raise ValueError(f"{len(text.encode()):,} bytes of text; a section is refused above {MAX_SECTION_BYTES:,}")
    title = TITLE_SEPARATOR.join(part for part in (document.title, *section.path) if part)
    record = PostRecord(ids.new(section.file, section.heading), title[:MAX_TITLE_CHARS], text)
    return record, source_formulas(found)
