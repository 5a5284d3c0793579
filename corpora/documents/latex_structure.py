"""A LaTeX document after expansion (see latex_expansion) as sections of words and formulas, read from
pylatexenc's node tree: `\\chapter`/`\\section`/`\\subsection` start sections, formatting commands keep the
words of their argument, citations are dropped, and math becomes formulas (latex_math).

What LaTeX numbers is numbered as it would be (latex_numbering): a numbered heading's number leads its part of
the post title ("2.1 Type theory"), a theorem-like environment starts with "Theorem 3.2.", a caption with
"Figure 1:", an enumerate item with "1."; and `\\ref`, `\\eqref`, `\\cref`, `\\autoref`, … print what LaTeX would
print, resolved once the whole document is read, since a label is often used before it is defined.
"""
from __future__ import annotations

import re
from dataclasses import replace

from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import (
    LatexCharsNode,
    LatexCommentNode,
    LatexEnvironmentNode,
    LatexGroupNode,
    LatexMacroNode,
    LatexMathNode,
    LatexNode,
    LatexSpecialsNode,
    LatexWalker,
)

from corpora.documents.latex_context import RUN_IN_HEADINGS, SECTION_LEVELS, latex_context
from corpora.documents.latex_expansion import Expansion
from corpora.documents.latex_includes import FILE_MARKER
from corpora.documents.latex_math import MathPiece, MathReader, math_environment
from corpora.documents.latex_numbering import CONFIGURATION, REFERENCES, Numbering
from corpora.documents.latex_verbatim import CODE_MARKER, VERBATIM_MARKER
from corpora.documents.long_formulas import LONG_FORMULA_MARKER, LongFormula, set_aside_long_formulas
from corpora.documents.posts import BREAK, Document, Formula, Piece, Section, body

_DROPPED = frozenset({
    "cite", "citep", "citet", "citealt", "citealp", "citeauthor", "citeyear", "nocite", "includegraphics", "hspace",
    "vspace", "setlength", "addtolength", "usepackage", "RequirePackage", "documentclass", "bibliography",
    "bibliographystyle", "title", "author", "date", "thanks", "maketitle", "tableofcontents", "newpage",
    "clearpage", "pagestyle", "thispagestyle", "hypersetup", "input", "include", "color", "definecolor",
    "theoremstyle", "graphicspath", "geometry", "index", "glossary", "hyperlink", "hypertarget", "phantomsection",
    "addcontentsline", "markboth", "markright", "newlength", "selectlanguage", "lstset", "setminted", "sisetup",
    "captionsetup", "bibitem", "keywords", "noindent", "centering", "raggedright", "medskip", "bigskip",
    "smallskip", "vfill", "hfill", "linebreak", "pagebreak",
})
_TEXT_SPECIALS = {"~": " ", "&": " ", "--": "–", "---": "—", "``": "“", "''": "”", "!`": "¡", "?`": "¿"}
_BLOCK_ENVIRONMENTS_INLINE = frozenset({"document"})
_NUMBERING = CONFIGURATION | REFERENCES | {"label", "caption", "item"}
_FLOATS = {"figure": "figure", "figure*": "figure", "wrapfigure": "figure", "SCfigure": "figure",
           "table": "table", "table*": "table", "wraptable": "table", "SCtable": "table", "longtable": "table",
           "subfigure": "", "subtable": ""}
"""The counter a `\\caption` steps in each float (a subfigure's is left unnumbered)."""
_ENUMERATIONS = frozenset({"enumerate", "compactenum", "asparaenum", "inparaenum"})
_LISTS = frozenset({"itemize", "description", "compactitem", "asparaitem", "inparaitem", "compactdesc"})
_NOTE_NODES = 20
"""How far a theorem's `[note]` is looked for when pylatexenc left it in the text: a bracket further on is prose."""


def latex_document(expansion: Expansion, file: str, fallback_title: str) -> Document:
    """The sections of a document's expanded text; `file` is the main file, `fallback_title` the title when
    the document has no `\\title`."""
    text, long_formulas = set_aside_long_formulas(expansion.text)
    expansion = replace(expansion, text=text)
    walker = LatexWalker(text, latex_context=latex_context(), tolerant_parsing=True)
    begin = _BEGIN_DOCUMENT.search(text)
    # The preamble is read apart: a `$` in a `\newcolumntype` there opened math that ran over the whole body, and
    # a manual was stored as one formula of its preamble.
    preamble = _nodes(LatexWalker(text[:begin.start()], latex_context=latex_context(), tolerant_parsing=True)
                      ) if begin else []
    nodes = _nodes(walker, begin.start() if begin else 0)
    content = next((node for node in nodes if isinstance(node, LatexEnvironmentNode)
                    and node.environmentname == "document"), None)
    if content is not None:
        preamble += nodes[:nodes.index(content)]
    reader = _Reader(expansion, file, Numbering(_document_class(preamble, MathReader(text))), long_formulas)
    reader.configure(preamble)
    title = reader.title(preamble) or ""
    reader.walk(content.nodelist if content is not None else nodes)
    document = reader.document
    document.title = title or reader.title(content.nodelist if content is not None else nodes) or fallback_title
    document.problems = list(expansion.problems)
    _resolve(document, reader.numbering)
    return document


_BEGIN_DOCUMENT = re.compile(r"(?m)^[ \t]*\\begin\s*\{document\}")


def _nodes(walker: LatexWalker, start: int = 0) -> list[LatexNode]:
    return walker.get_latex_nodes(pos=start)[0]


def _document_class(preamble: list[LatexNode], math: MathReader) -> str | None:
    return next((math.argument_text(node) for node in preamble
                 if isinstance(node, LatexMacroNode) and node.macroname == "documentclass"), None)


def _resolve(document: Document, numbering: Numbering) -> None:
    """Writes what each reference prints in place of its placeholder, now that every label is known."""
    document.title = numbering.resolve(document.title)
    for section in document.sections:
        section.heading = numbering.resolve(section.heading)
        section.path = tuple(numbering.resolve(part) for part in section.path)
        section.pieces = [_resolved(piece, numbering) for piece in section.pieces]


def _resolved(piece: Piece, numbering: Numbering) -> Piece:
    if isinstance(piece, str):
        return numbering.resolve(piece)
    if isinstance(piece, Formula) and "\ue000" in piece.text:
        return replace(piece, text=numbering.resolve(piece.text))
    return piece


class _Reader:
    def __init__(self, expansion: Expansion, file: str, numbering: Numbering, long_formulas: list[LongFormula]):
        self.expansion = expansion
        self.long_formulas = long_formulas
        self.file = file
        self.numbering = numbering
        self.math = MathReader(expansion.text, expansion.verbatim, numbering)
        self.environments: list[str] = []
        self.document = Document(file, "")
        self.section: Section = Section("", file)
        self.document.sections.append(self.section)
        self.text = LatexNodes2Text(math_mode="verbatim", strict_latex_spaces=True)

    @property
    def pieces(self) -> list[Piece]:
        return self.section.pieces

    def title(self, nodes: list[LatexNode]) -> str:
        for node in nodes:
            if isinstance(node, LatexMacroNode) and node.macroname == "title":
                return self.plain(_last_argument(node))
        return ""

    def configure(self, nodes: list[LatexNode]) -> None:
        """Reads the preamble's `\\newtheorem`, `\\numberwithin`, `\\setcounter`, …"""
        for node in nodes:
            if isinstance(node, LatexMacroNode) and node.macroname in CONFIGURATION:
                self.numbering.configure(node.macroname, self.math.argument_texts(node))
            elif isinstance(node, LatexGroupNode):
                self.configure(node.nodelist)

    def plain(self, node: LatexNode | None) -> str:
        """A heading's text, its formulas as `$…$`, on one line."""
        if node is None:
            return ""
        saved, self.section = self.section, Section("", self.file)
        self.walk([node])
        text, _ = body([piece for piece in self.section.pieces if not isinstance(piece, type(BREAK))])
        self.section = saved
        return " ".join(text.split())

    def walk(self, nodes: list[LatexNode]) -> None:
        for node in nodes:
            if isinstance(node, LatexCharsNode):
                self.pieces.append(node.chars)
            elif isinstance(node, LatexGroupNode):
                self.walk(node.nodelist)
            elif isinstance(node, LatexMathNode):
                self.math_pieces(self.math.math_node(node))
            elif isinstance(node, LatexEnvironmentNode):
                self.environment(node)
            elif isinstance(node, LatexMacroNode):
                self.macro(node)
            elif isinstance(node, LatexSpecialsNode):
                self.pieces.append(_TEXT_SPECIALS.get(node.specials_chars, node.specials_chars))
            elif not isinstance(node, LatexCommentNode):
                self.pieces.append(self.math.raw(node))

    def math_pieces(self, pieces: list[MathPiece]) -> None:
        for piece in pieces:
            if isinstance(piece, LatexNode):
                self.pieces.append(BREAK)
                self.walk([piece])
                self.pieces.append(BREAK)
            else:
                self.pieces.append(piece)

    def environment(self, node: LatexEnvironmentNode) -> None:
        math = math_environment(node.environmentname)
        if math is not None:
            self.math_pieces(self.math.environment(node, *math))
            return
        inline = node.environmentname in _BLOCK_ENVIRONMENTS_INLINE
        if not inline:
            self.pieces.append(BREAK)
        self.environments.append(node.environmentname)
        with self.numbering.group():
            self.parts(self.opening(node))
        self.environments.pop()
        if not inline:
            self.pieces.append(BREAK)

    def opening(self, node: LatexEnvironmentNode) -> list[str | LatexNode]:
        """What an environment starts in the numbering (a list, a theorem's heading, …); what to read of it."""
        name = node.environmentname
        if name in _ENUMERATIONS or name in _LISTS:
            options = _optional_argument(node)
            self.numbering.start_list(name in _ENUMERATIONS, self.math.inner(options) if options else "")
        elif name == "subequations":
            self.numbering.subequations()
        elif name == "appendices":
            self.numbering.start_appendix()
        elif (heading := self.numbering.theorem(name)) is not None:
            return self.theorem(node, heading)
        return list(node.nodelist)

    def theorem(self, node: LatexEnvironmentNode, heading: str) -> list[str | LatexNode]:
        """A theorem's heading, "Theorem 3.2 (Its note).", and what follows it."""
        argument = _optional_argument(node)
        found = ([argument], list(node.nodelist)) if argument is not None else _leading_note(node.nodelist)
        if found is None:
            self.pieces.append(f"{heading}. ")
            return list(node.nodelist)
        note, rest = found
        self.pieces.append(f"{heading} (")
        self.parts(note)
        self.pieces.append("). ")
        return rest

    def parts(self, parts: list[str | LatexNode]) -> None:
        """Nodes, and text cut out of a node (a note's words around its formulas)."""
        for part in parts:
            if isinstance(part, str):
                self.pieces.append(part)
            else:
                self.walk([part])

    def macro(self, node: LatexMacroNode) -> None:
        name = node.macroname
        if name == FILE_MARKER:
            self.file = self.math.argument_text(node)
        elif name in SECTION_LEVELS or name in RUN_IN_HEADINGS:
            self.heading(node)
        elif name in _NUMBERING:
            self.numbered(node)
        elif name == VERBATIM_MARKER:
            self.pieces.append(self._verbatim(node))
        elif name == CODE_MARKER:
            self.pieces.append(BREAK)
        elif name == LONG_FORMULA_MARKER:
            long = self.long_formulas[int(self.math.argument_text(node))]
            self.pieces.append(Formula(" ".join(long.latex.split()), "latex", long.display))
        elif name == "ensuremath":
            argument = _last_argument(node)
            inside = argument.nodelist if isinstance(argument, LatexGroupNode) else [argument] if argument else []
            self.math_pieces(self.math.formulas(inside, False, False))
        elif name == "footnote":
            self.pieces.append(" ")
            self.walk([_last_argument(node)])
        elif name in _DROPPED:
            return
        elif name in ("\\", "newline"):
            self.pieces.append(" ")
        elif name == "par":
            self.pieces.append(BREAK)
        elif any(argument is not None for argument in _arguments(node)) and not _accent(node):
            self.walk([_last_argument(node)])  # \emph{…}, \textbf{…}, \footnote{…}, \href{url}{…}
        else:
            self.pieces.append(self._words(node))

    def heading(self, node: LatexMacroNode) -> None:
        """A heading starts a section (a run-in one, a paragraph); its number leads it in the post title."""
        name = node.macroname
        number = self.numbering.heading(name, _starred(node))
        words = self.plain(_last_argument(node))
        self.numbering.name(words)
        shown = f"{number} {words}".strip() if number else words
        if name in RUN_IN_HEADINGS:
            self.pieces.extend([BREAK, shown, BREAK])
            return
        self.section = self.document.section(words, SECTION_LEVELS[name], self.file)
        self.section.path = (*self.section.path[:-1], shown)

    def numbered(self, node: LatexMacroNode) -> None:
        """A label, a reference, a command that sets the numbering, a caption or an item."""
        name = node.macroname
        if name == "label":
            self.numbering.label(self.math.argument_text(node))
        elif name in REFERENCES:
            self.pieces.append(self.numbering.reference(name, self.math.braced_arguments(node)))
        elif name in CONFIGURATION:
            self.numbering.configure(name, self.math.argument_texts(node))
        elif name == "caption":
            kind = next((_FLOATS[inside] for inside in reversed(self.environments) if inside in _FLOATS), "")
            printed = self.numbering.caption(kind)
            self.pieces.append(f"{printed}: " if printed else "")
            self.walk(_arguments(node)[-1:])
        else:
            label = self.numbering.item() if _last_argument(node) is None else None
            self.pieces.extend([BREAK, f"{label} " if label else "– "])
            self.walk(_arguments(node))

    def _words(self, node: LatexMacroNode) -> str:
        """pylatexenc's text for a macro (`\\LaTeX`, `\\'e`); nothing when its replacement wants arguments the
        macro was parsed without (a `\\fcolorbox` whose arguments pylatexenc did not find)."""
        try:
            return self.text.node_to_text(node)
        except (KeyError, IndexError, TypeError):
            return ""

    def _verbatim(self, node: LatexMacroNode) -> str:
        number = self.math.argument_text(node)
        return self.expansion.verbatim[int(number)] if number.isdigit() and int(number) < len(
            self.expansion.verbatim) else ""


def _arguments(node: LatexMacroNode) -> list[LatexNode]:
    return [argument for argument in (node.nodeargd.argnlist if node.nodeargd else []) if argument is not None]


def _last_argument(node: LatexMacroNode) -> LatexNode | None:
    arguments = _arguments(node)
    return arguments[-1] if arguments else None


def _starred(node: LatexMacroNode) -> bool:
    arguments = node.nodeargd.argnlist if node.nodeargd else []
    return bool(arguments) and isinstance(arguments[0], LatexCharsNode) and arguments[0].chars == "*"


def _optional_argument(node: LatexEnvironmentNode) -> LatexNode | None:
    """An environment's `[…]` argument, as pylatexenc parsed it."""
    return next((argument for argument in (node.nodeargd.argnlist if node.nodeargd else [])
                 if isinstance(argument, LatexGroupNode) and argument.delimiters[0] == "["), None)


def _leading_note(nodes: list[LatexNode]) -> tuple[list[str | LatexNode], list[str | LatexNode]] | None:
    """The `[note]` that starts an environment whose arguments pylatexenc does not know (a theorem named by the
    document), as text and nodes, and what follows it; None when it does not start with one."""
    first = nodes[0] if nodes and isinstance(nodes[0], LatexCharsNode) else None
    if first is None or not first.chars.lstrip().startswith("["):
        return None
    opening = first.chars.index("[") + 1
    for index, node in enumerate(nodes[:_NOTE_NODES]):
        start = opening if index == 0 else 0
        if isinstance(node, LatexCharsNode) and "]" in node.chars[start:]:
            close = node.chars.index("]", start)
            note = [first.chars[opening:close]] if index == 0 else [first.chars[opening:], *nodes[1:index],
                                                                     node.chars[:close]]
            return note, [node.chars[close + 1:], *nodes[index + 1:]]
    return None


def _accent(node: LatexMacroNode) -> bool:
    """`\\'e`, `\\c{c}`: one letter under an accent, which pylatexenc's text converter writes as é, ç."""
    return len(node.macroname) == 1 and not node.macroname.isalpha() or node.macroname in ("c", "d", "b", "r", "k",
                                                                                            "u", "v", "H", "t")


__all__ = ["Formula", "latex_document"]
