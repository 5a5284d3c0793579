"""Formula text → both graphs: the Symbol Layout Tree and, when one can be built, the Operator Tree."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mathparse.cycle_collection import cycle_collection_paused
from mathparse.errors import ParseError, check_length
from mathparse.latex_parser import latex_to_slt
from mathparse.mathml import mathml_to_slt
from mathparse.opt import OptError, build_opt
from mathparse.slt_string import looks_like_slt_string, to_slt_string, tree_from_slt_string
from mathparse.tree import Tree
from mathparse.unicode_math import from_unicode

MAX_OPT_NODES = 600
"""Operator trees are built only up to this many SLT nodes (the largest real formula seen has 587): building
one costs time quadratic in the size, and every parse must stay within its time budget."""
_DOLLARS = (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"))
NOTATIONS = ("latex", "mathml", "slt")
"""What `parse` accepts: LaTeX, Presentation MathML, or a Tangent-S SLT string."""


@dataclass(frozen=True)
class FormulaGraphs:
    source: str
    slt: Tree
    opt: Tree | None
    opt_error: str | None = None


def parse(text: str, notation: str, *, query: bool = False) -> FormulaGraphs:
    """Both graphs of a formula written in `notation` (one of NOTATIONS).

    The caller names the notation, so a flow never guesses it and text meant as LaTeX is never read as
    something else. Nesting too deep for the layout builder's recursion (the LaTeX parser bounds braces, not
    fences: `((…(x)…))` 400 deep) is a ParseError of kind "too_deep", like any other unreadable formula, so an
    indexing batch reports it per record and a query answers 400. A `query`'s LaTeX may write a query variable
    `?x` as well as `\\qvar{x}`, and its math in Unicode (`x²`, `√2`, `ℝ`: `mathparse.unicode_math`), as search
    users do; a corpus formula's `?` is a symbol.
    """
    parser = _PARSERS.get(notation)
    if parser is None:
        raise ValueError(f"unknown notation {notation!r}; choose one of {', '.join(NOTATIONS)}")
    try:
        return parse_latex(text, query=True) if query and notation == "latex" else parser(text)
    except RecursionError:
        raise ParseError("the formula nests too deeply to read", None, "too_deep") from None


@cycle_collection_paused()
def parse_latex(latex: str, query: bool = False) -> FormulaGraphs:
    """Parse one LaTeX formula (math mode; surrounding `$…$`, `\\(…\\)` are dropped); a `query`'s Unicode math is
    read as LaTeX first.

    A Tangent SLT string is refused (kind "slt_string") rather than read as brackets and factorials.
    """
    check_length(latex)
    reading = from_unicode(latex) if query else None
    read = reading.latex if reading else latex
    content = strip_math_delimiters(read)
    offset = read.find(content) if content else 0
    try:
        if looks_like_slt_string(content):
            raise ParseError("this looks like a Tangent SLT string, not LaTeX; give it with notation slt", 0,
                             "slt_string")
        root = latex_to_slt(content, query)
    except ParseError as error:  # positions count from the start of what the caller typed
        if error.pos is None:
            raise
        pos = error.pos + offset
        raise ParseError(error.message, reading.typed_pos(pos) if reading else pos, error.kind) from None
    return _with_opt(latex, Tree(root, "slt"))


@cycle_collection_paused()
def parse_slt_string(text: str) -> FormulaGraphs:
    """Parse a Tangent-S SLT string such as `[V!x,a[N!2]]`."""
    return _with_opt(text, tree_from_slt_string(text))


@cycle_collection_paused()
def parse_mathml(mathml: str) -> FormulaGraphs:
    """Parse Presentation MathML (a `<math>` element, e.g. LaTeXML output; Content MathML parts are ignored)."""
    return _with_opt(mathml, Tree(mathml_to_slt(mathml), "slt"))


def graphs_to_json(graphs: FormulaGraphs) -> dict:
    """Both trees as JSON-ready data: nodes (pre-order ids and labels), edges, and the SLT string."""
    return {
        "source": graphs.source,
        "slt": {**tree_to_json(graphs.slt), "string": to_slt_string(graphs.slt)},
        "opt": tree_to_json(graphs.opt) if graphs.opt is not None else None,
        "opt_error": graphs.opt_error,
    }


def tree_to_json(tree: Tree) -> dict:
    return {
        "kind": tree.kind,
        "nodes": [{"id": index, "label": label} for index, label in enumerate(tree.labels)],
        "edges": [{"parent": parent, "child": child, "label": label} for parent, child, label in tree.edges],
    }


def strip_math_delimiters(latex: str) -> str:
    text = latex.strip()
    for opening, closing in _DOLLARS:
        if len(text) >= len(opening) + len(closing) and text.startswith(opening) and text.endswith(closing):
            return text[len(opening):len(text) - len(closing)]
    return text


def _with_opt(source: str, slt: Tree) -> FormulaGraphs:
    if len(slt) > MAX_OPT_NODES:
        return FormulaGraphs(source, slt, None, f"formula too large for an operator tree ({len(slt)} > {MAX_OPT_NODES} nodes)")
    try:
        return FormulaGraphs(source, slt, build_opt(slt), None)
    except OptError as error:
        return FormulaGraphs(source, slt, None, str(error) or type(error).__name__)
    except RecursionError:  # a pathological layout must not take the SLT down with it
        return FormulaGraphs(source, slt, None, "formula too deeply nested for an operator tree")


_PARSERS: dict[str, Callable[[str], FormulaGraphs]] = {"latex": parse_latex, "mathml": parse_mathml, "slt": parse_slt_string}
