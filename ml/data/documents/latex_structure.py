"""A LaTeX document after expansion (see latex_expansion) as sections of words and formulas, read from
pylatexenc's node tree: `\\chapter`/`\\section`/`\\subsection` start sections, formatting commands keep the
words of their argument, references and citations are dropped, and math becomes formulas (latex_math).
"""
from __future__ import annotations

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

from ml.data.documents.latex_context import RUN_IN_HEADINGS, SECTION_LEVELS, latex_context
from ml.data.documents.latex_expansion import CODE_MARKER, FILE_MARKER, VERBATIM_MARKER, Expansion
from ml.data.documents.latex_math import MathPiece, MathReader, math_environment
from ml.data.documents.posts import BREAK, Document, Formula, Piece, Section, body

_DROPPED = frozenset({
    "label", "ref", "eqref", "pageref", "autoref", "cref", "Cref", "vref", "nameref", "cite", "citep", "citet",
    "citealt", "citealp", "citeauthor", "citeyear", "nocite", "includegraphics", "hspace", "vspace", "setlength",
    "addtolength", "setcounter", "addtocounter", "usepackage", "RequirePackage", "documentclass", "bibliography",
    "bibliographystyle", "title", "author", "date", "thanks", "maketitle", "tableofcontents", "newpage",
    "clearpage", "pagestyle", "thispagestyle", "hypersetup", "input", "include", "color", "definecolor",
    "newtheorem", "theoremstyle", "numberwithin", "graphicspath", "geometry", "index", "glossary", "hyperlink",
    "hypertarget", "phantomsection", "addcontentsline", "markboth", "markright", "newlength", "newcounter",
    "selectlanguage", "lstset", "setminted", "sisetup", "captionsetup", "bibitem", "keywords", "noindent",
    "centering", "raggedright", "medskip", "bigskip", "smallskip", "vfill", "hfill", "linebreak", "pagebreak",
})
_TEXT_SPECIALS = {"~": " ", "&": " ", "--": "–", "---": "—", "``": "“", "''": "”", "!`": "¡", "?`": "¿"}
_BLOCK_ENVIRONMENTS_INLINE = frozenset({"document"})


def latex_document(expansion: Expansion, file: str, fallback_title: str) -> Document:
    """The sections of a document's expanded text; `file` is the main file, `fallback_title` the title when
    the document has no `\\title`."""
    walker = LatexWalker(expansion.text, latex_context=latex_context(), tolerant_parsing=True)
    nodes, _, _ = walker.get_latex_nodes()
    reader = _Reader(expansion, file)
    content = next((node for node in nodes if isinstance(node, LatexEnvironmentNode)
                    and node.environmentname == "document"), None)
    preamble = nodes[:nodes.index(content)] if content is not None else []
    title = reader.title(preamble) or ""
    reader.walk(content.nodelist if content is not None else nodes)
    document = reader.document
    document.title = title or reader.title(content.nodelist if content is not None else nodes) or fallback_title
    document.problems = list(expansion.problems)
    return document


class _Reader:
    def __init__(self, expansion: Expansion, file: str) -> None:
        self.expansion = expansion
        self.file = file
        self.math = MathReader(expansion.text, expansion.verbatim)
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
        self.walk(node.nodelist)
        if not inline:
            self.pieces.append(BREAK)

    def macro(self, node: LatexMacroNode) -> None:
        name = node.macroname
        if name == FILE_MARKER:
            self.file = self.math.argument_text(node)
        elif name in SECTION_LEVELS:
            heading = self.plain(_last_argument(node))
            self.section = self.document.section(heading, SECTION_LEVELS[name], self.file)
        elif name in RUN_IN_HEADINGS:
            self.pieces.extend([BREAK, self.plain(_last_argument(node)), BREAK])
        elif name == VERBATIM_MARKER:
            self.pieces.append(self._verbatim(node))
        elif name == CODE_MARKER:
            self.pieces.append(BREAK)
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
        elif name == "item":
            self.pieces.extend([BREAK, "– "])
            self.walk([argument for argument in _arguments(node)])
        elif any(argument is not None for argument in _arguments(node)) and not _accent(node):
            self.walk([_last_argument(node)])  # \emph{…}, \textbf{…}, \footnote{…}, \href{url}{…}
        else:
            self.pieces.append(self.text.node_to_text(node))

    def _verbatim(self, node: LatexMacroNode) -> str:
        number = self.math.argument_text(node)
        return self.expansion.verbatim[int(number)] if number.isdigit() and int(number) < len(
            self.expansion.verbatim) else ""


def _arguments(node: LatexMacroNode) -> list[LatexNode]:
    return [argument for argument in (node.nodeargd.argnlist if node.nodeargd else []) if argument is not None]


def _last_argument(node: LatexMacroNode) -> LatexNode | None:
    arguments = _arguments(node)
    return arguments[-1] if arguments else None


def _accent(node: LatexMacroNode) -> bool:
    """`\\'e`, `\\c{c}`: one letter under an accent, which pylatexenc's text converter writes as é, ç."""
    return len(node.macroname) == 1 and not node.macroname.isalpha() or node.macroname in ("c", "d", "b", "r", "k",
                                                                                            "u", "v", "H", "t")


__all__ = ["Formula", "latex_document"]
