"""The formulas of a LaTeX math node or environment, from pylatexenc's nodes: an alignment environment gives one
formula per line (split at its own `\\\\`, never inside braces or an inner `cases`/`matrix`), without its `&`;
`\\label` becomes the formula's anchor and it, `\\tag`, `\\nonumber` and `\\notag` leave the formula's text.

In a document, a display formula carries the number LaTeX prints for it (see latex_numbering: `equation`,
`align`, … per line unless starred or `\\nonumber`, `multline` once, `\\tag{x}` as x), and a reference inside a
formula becomes `\\text{…}` of what it prints; `\\ensuremath{x}` is just x.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

from pylatexenc.latexwalker import (
    LatexCharsNode,
    LatexEnvironmentNode,
    LatexGroupNode,
    LatexMacroNode,
    LatexMathNode,
    LatexNode,
    LatexSpecialsNode,
    LatexWalker,
)

from corpora.documents.latex_context import ENVIRONMENT_ALIASES, latex_context
from corpora.documents.latex_numbering import REFERENCES, Numbering
from corpora.documents.long_formulas import unreadable
from corpora.documents.posts import Formula, shown_formula

MATH_ENVIRONMENTS = {
    # name: (display, split into lines at its own \\)
    "equation": (True, False), "displaymath": (True, False), "math": (False, False), "multline": (True, False),
    "align": (True, True), "alignat": (True, True), "gather": (True, True), "flalign": (True, True),
    "eqnarray": (True, True), "xalignat": (True, True), "xxalignat": (True, True), "dmath": (True, False),
    "dgroup": (True, True), "darray": (True, True),
}
"""A `multline` is one formula broken for the page, so its lines are joined rather than split."""
NUMBERED = frozenset({"equation", "align", "alignat", "gather", "flalign", "eqnarray", "multline", "xalignat", "dmath"})
"""The environments that number their formulas (starred, they do not)."""
_DROPPED = frozenset({"label", "tag", "nonumber", "notag", "mathsearchfile"})
MathPiece: TypeAlias = "Formula | str | LatexNode"
"""A formula, or text between formulas: an `\\intertext`'s argument node, read by the caller as prose."""
_TEXT_ESCAPES = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "#": r"\#", "%": r"\%", "&": r"\&",
                 "_": r"\_", "^": r"\^{}", "~": r"\~{}"}
DRAWINGS = frozenset({"tikzpicture", "picture", "pspicture", "axopicture", "scope"})
"""Drawings inside a formula (a highlight behind a matrix, a Feynman diagram) are graphics, not math: left out."""
_NICEMATRIX_CODE = frozenset({"CodeBefore", "CodeAfter"})
_LAYOUT = frozenset({"halign", "valign", "ialign", "vbox", "vtop", "hbox", "vcenter"})
_LINE_BREAKS = frozenset({"\\", "cr", "crcr"})
_INTERTEXT = frozenset({"intertext", "shortintertext"})


@dataclass
class _Line:
    """What a formula's line says of its number: its labels, its `\\tag`, a `\\nonumber`."""

    labels: list[str] = field(default_factory=list)
    tag: str | None = None
    unnumbered: bool = False

    def read(self, command: str, argument: str) -> None:
        if command == "label":
            self.labels.append(argument)
        elif command == "tag":
            self.tag = argument.replace("$", "").strip()  # `\\tag{$*$}` prints (*)
        elif command in ("nonumber", "notag"):
            self.unnumbered = True


def math_environment(name: str) -> tuple[bool, bool] | None:
    """(display, split into lines) for a math environment (starred or not), or None."""
    return MATH_ENVIRONMENTS.get(name.removesuffix("*"))


@dataclass
class MathReader:
    """Formula text out of nodes of the text `source` they were parsed from."""

    source: str
    verbatim: list[str] = field(default_factory=list)
    """The `\\verb` texts that `\\mathsearchverbatim{n}` stands for (see latex_expansion)."""
    numbering: Numbering | None = None
    """The document's counters and labels; without it a formula's number is only its `\\tag`."""

    def raw(self, node: LatexNode) -> str:
        return self.source[node.pos:node.pos + node.len]

    def math_node(self, node: LatexMathNode) -> list[MathPiece]:
        """`$…$`, `\\(…\\)` (inline), `\\[…\\]`, `$$…$$` (display): one formula; but plain TeX's
        `$$\\halign{…}$$` and `$$\\vbox{…}$$` are a table or a box set in display, not a formula."""
        first = next((inner for inner in node.nodelist
                      if not (isinstance(inner, LatexCharsNode) and not inner.chars.strip())), None)
        if node.displaytype == "display" and isinstance(first, LatexMacroNode) and first.macroname in _LAYOUT:
            return []
        return self.formulas(node.nodelist, node.displaytype == "display", split=False)

    def environment(self, node: LatexEnvironmentNode, display: bool, split: bool) -> list[MathPiece]:
        return self.formulas(node.nodelist, display, split, numbered=node.environmentname in NUMBERED)

    def formulas(self, nodes: list[LatexNode], display: bool, split: bool, numbered: bool = False) -> list[MathPiece]:
        """Each line's formula (with the anchor of its `\\label` and its number) and, between them, the argument
        of an `\\intertext` (text, to be read as the document's words)."""
        out: list[MathPiece] = []
        line: list[LatexNode] = []

        def close() -> None:
            found = _Line()
            written = self.text(line, found, top=True)
            # a formula too long to keep still takes its number, as the document's later ones count on it
            number = self.number(found, numbered) if written.strip() else ""
            text = shown_formula(written)
            if text:
                out.append(Formula(text, "latex", display, found.labels[0] if found.labels else "", number=number))
            line.clear()

        for node in nodes:
            if isinstance(node, LatexMacroNode) and node.macroname in _LINE_BREAKS:
                if split:
                    close()
            elif isinstance(node, LatexMacroNode) and node.macroname in _INTERTEXT:
                close()
                out.extend(argument for argument in (node.nodeargd.argnlist if node.nodeargd else [])
                           if argument is not None)
            else:
                line.append(node)
        close()
        return out

    def number(self, line: _Line, numbered: bool) -> str:
        if self.numbering is None:
            return line.tag or ""
        return self.numbering.equation(line.labels, line.tag, numbered and not line.unnumbered)

    def text(self, nodes: list[LatexNode], line: _Line, top: bool = False) -> str:
        """The nodes as written, without what _DROPPED names (read into `line`) and, at the top of an
        alignment, without its `&`."""
        parts: list[str] = []
        for node in nodes:
            if isinstance(node, LatexMacroNode):
                parts.append(self.macro_text(node, line, top, parts[-1] if parts else ""))
            elif isinstance(node, LatexEnvironmentNode) and node.environmentname in DRAWINGS:
                parts.append(" ")
            elif top and isinstance(node, LatexSpecialsNode) and node.specials_chars == "&":
                parts.append(" ")
            elif isinstance(node, LatexEnvironmentNode) and node.environmentname in ENVIRONMENT_ALIASES:
                parts.append(self.aliased(node, line))
            elif isinstance(node, LatexGroupNode | LatexEnvironmentNode) and node.nodelist:
                first, last = node.nodelist[0], node.nodelist[-1]
                parts.append(self.source[node.pos:first.pos] + self.text(node.nodelist, line)
                             + self.source[last.pos + last.len:node.pos + node.len])
            else:
                parts.append(self.raw(node))
        return "".join(parts)

    def macro_text(self, node: LatexMacroNode, line: _Line, top: bool, before: str) -> str:
        """A macro inside a formula as the formula's text carries it; `before` is the text just before it."""
        name = node.macroname
        if name in _DROPPED:
            line.read(name, self.argument_text(node))
            return " "
        if name == "mathsearchverbatim":
            return self.verbatim_text(node)
        if top and name in _LINE_BREAKS:
            return " "  # a multline's break
        if name == "ensuremath":
            argument = _last_argument(node)
            inside = self.text(argument.nodelist, line) if isinstance(argument, LatexGroupNode) else self.raw(
                argument) if argument is not None else ""
            return f"{{{inside}}}" if before.rstrip().endswith(("^", "_")) else inside
        if name in REFERENCES and self.numbering is not None:
            return self.numbering.reference(name, self.braced_arguments(node), _in_text)
        return self.raw(node)

    def aliased(self, node: LatexEnvironmentNode, line: _Line) -> str:
        alias = ENVIRONMENT_ALIASES[node.environmentname]
        columns = [argument for argument in (node.nodeargd.argnlist if node.nodeargd else [])
                   if isinstance(argument, LatexGroupNode)]
        columns_text = self.raw(columns[0]) if columns and alias == "array" else "{c}" * (alias == "array")
        return f"\\begin{{{alias}}}{columns_text}{self.text(_without_code(node.nodelist), line)}\\end{{{alias}}}"

    def verbatim_text(self, node: LatexMacroNode) -> str:
        """A `\\verb|…|` inside math, as `\\texttt{…}` with its special characters escaped."""
        number = self.argument_text(node)
        text = self.verbatim[int(number)] if number.isdigit() and int(number) < len(self.verbatim) else ""
        return "\\texttt{" + _escaped(text) + "}"

    def argument_text(self, node: LatexMacroNode) -> str:
        arguments = [argument for argument in (node.nodeargd.argnlist if node.nodeargd else []) if argument is not None]
        return self.raw(arguments[-1]).strip().removeprefix("{").removesuffix("}").strip() if arguments else ""

    def argument_texts(self, node: LatexMacroNode) -> list[str | None]:
        """Each argument's text without its braces or brackets, in the order of the macro's argspec (`*` for a
        star, None where an optional one is absent)."""
        return [None if argument is None else self.inner(argument)
                for argument in (node.nodeargd.argnlist if node.nodeargd else [])]

    def braced_arguments(self, node: LatexMacroNode) -> list[str]:
        """The texts of the macro's `{…}` arguments."""
        return [self.inner(argument) for argument in (node.nodeargd.argnlist if node.nodeargd else [])
                if isinstance(argument, LatexGroupNode) and argument.delimiters[0] == "{"]

    def inner(self, node: LatexNode) -> str:
        text = self.raw(node)
        if isinstance(node, LatexGroupNode) and node.delimiters[0] and node.delimiters[1] and len(text) >= 2:
            text = text[len(node.delimiters[0]):len(text) - len(node.delimiters[1])]
        return text.strip()


def _last_argument(node: LatexMacroNode) -> LatexNode | None:
    arguments = [argument for argument in (node.nodeargd.argnlist if node.nodeargd else []) if argument is not None]
    return arguments[-1] if arguments else None


def _escaped(text: str) -> str:
    return "".join(_TEXT_ESCAPES.get(char, char) for char in text)


def _in_text(printed: str) -> str:
    """What a reference prints, set inside a formula."""
    return "\\text{" + _escaped(printed) + "}"


def _without_code(nodes: list[LatexNode]) -> list[LatexNode]:
    """A nicematrix body without its `\\CodeBefore … \\Body` and `\\CodeAfter …` (drawing instructions)."""
    kept, skipping = [], False
    for node in nodes:
        if isinstance(node, LatexMacroNode) and node.macroname in _NICEMATRIX_CODE:
            skipping = True
        elif isinstance(node, LatexMacroNode) and node.macroname == "Body":
            skipping = False
        elif not skipping:
            kept.append(node)
    return kept


def latex_formulas(latex: str, display: bool) -> list[Formula | str]:
    """The formulas of LaTeX math found outside a LaTeX document (Markdown's `$$…$$`, a page's TeX annotation):
    an alignment environment split into lines, labels made anchors. One too long or deep to read is kept as
    written, for indexing to report (see long_formulas)."""
    if unreadable(latex):
        return [Formula(" ".join(latex.split()), "latex", display)]
    walker = LatexWalker(latex, latex_context=latex_context(), tolerant_parsing=True)
    nodes, _, _ = walker.get_latex_nodes()
    reader = MathReader(latex)
    content = [node for node in nodes if not (isinstance(node, LatexCharsNode) and not node.chars.strip())]
    pieces = reader.formulas(nodes, display, split=False)
    if len(content) == 1 and isinstance(content[0], LatexEnvironmentNode):
        math = math_environment(content[0].environmentname)
        if math is not None:
            pieces = reader.environment(content[0], display and math[0], math[1])
    return [reader.raw(piece).strip("{}") if isinstance(piece, LatexNode) else piece for piece in pieces]
