"""The macros and environments pylatexenc must know the arguments of, for this package's readers to see them:
pylatexenc's own table, the headings, the markers of latex_expansion, the math environments and the package
environments read as amsmath ones.
"""
from __future__ import annotations

import logging
from functools import cache

from pylatexenc.latexwalker import get_default_latex_context_db
from pylatexenc.macrospec import LatexContextDb, std_environment, std_macro

from corpora.documents.latex_includes import FILE_MARKER
from corpora.documents.latex_numbering import MACROS as NUMBERING_MACROS
from corpora.documents.latex_verbatim import CODE_MARKER, VERBATIM_MARKER
from corpora.documents.long_formulas import LONG_FORMULA_MARKER

# pylatexenc's tolerant mode logs each construct it skips at INFO: a worker logging at INFO printed one line per
# package environment of every document. What the reader cannot read it reports itself, as the file's problems.
logging.getLogger("pylatexenc.latexwalker").setLevel(logging.WARNING)

SECTION_LEVELS = {"part": 1, "chapter": 2, "section": 3, "subsection": 4}
"""Headings that start a post; a part or chapter above sections makes the post title longer."""
RUN_IN_HEADINGS = frozenset({"subsubsection", "paragraph", "subparagraph"})
ENVIRONMENT_ALIASES = {
    "NiceMatrix": "matrix", "pNiceMatrix": "pmatrix", "bNiceMatrix": "bmatrix", "BNiceMatrix": "Bmatrix",
    "vNiceMatrix": "vmatrix", "VNiceMatrix": "Vmatrix", "NiceArray": "array", "pNiceArray": "array",
    "bNiceArray": "array", "BNiceArray": "array", "vNiceArray": "array", "VNiceArray": "array",
    "NiceArrayWithDelims": "array", "WithArrows": "aligned", "DispWithArrows": "aligned",
}
"""Package environments that are an amsmath one with options of their own (nicematrix, witharrows): written
as the amsmath one, their `[options]` dropped, for the formula parser."""

@cache
def latex_context() -> LatexContextDb:
    """pylatexenc's macros and environments, with the argument forms of those this reader needs to see."""
    context = get_default_latex_context_db()
    context.add_context_category("mathsearch", prepend=True, macros=[
        std_macro(FILE_MARKER, False, 1), std_macro(VERBATIM_MARKER, False, 1), std_macro(CODE_MARKER, False, 1),
        std_macro(LONG_FORMULA_MARKER, False, 1),
        *(std_macro(name, "*[{") for name in (*SECTION_LEVELS, *RUN_IN_HEADINGS)),
        std_macro("title", "[{"), std_macro("author", "[{"), std_macro("thanks", "{"), std_macro("tag", "*{"),
        std_macro("label", "{"), std_macro("intertext", "{"), std_macro("shortintertext", "{"),
        std_macro("caption", "[{"), std_macro("footnote", "[{"), std_macro("href", "[{{"), std_macro("url", "{"),
        std_macro("includegraphics", "*[[{"), std_macro("textcolor", "[{{"), std_macro("color", "[{"),
        std_macro("colorbox", "[{{"), std_macro("hyperref", "[{"), std_macro("ensuremath", "{"),
        std_macro("vref", "*{"), std_macro("nameref", "*{"), std_macro("bibitem", "[{"),
        std_macro("newtheorem", "*{[{["), std_macro("item", "["), std_macro("index", "{"),
        std_macro("hyperlink", "{"), std_macro("hypertarget", "{"),
        *(std_macro(name, argspec) for name, argspec in NUMBERING_MACROS.items()),
    ], environments=[
        std_environment("alignat", "{", is_math_mode=True), std_environment("alignat*", "{", is_math_mode=True),
        std_environment("xalignat", "{", is_math_mode=True), std_environment("xxalignat", "{", is_math_mode=True),
        std_environment("displaymath", None, is_math_mode=True), std_environment("math", None, is_math_mode=True),
        *(std_environment(name, "{[" if alias == "array" and name != "NiceArrayWithDelims" else "[", is_math_mode=True)
          for name, alias in ENVIRONMENT_ALIASES.items()),
        std_environment("minipage", "[[[{"), std_environment("multicols", "{"), std_environment("thebibliography", "{"),
    ])
    return context
