"""Formula parsing: LaTeX, Presentation MathML and Tangent SLT strings → Symbol Layout Trees and Operator Trees;
`extraction` finds the formulas in a post's text. The first of the three framework-free libraries: it imports
neither `corpora` nor `ml` (tests/test_layers.py).

    from mathparse import parse, to_slt_string
    g = parse(r"x^{2y}+1", "latex")
    to_slt_string(g.slt), g.opt
"""
from mathparse.api import (
    NOTATIONS,
    FormulaGraphs,
    graphs_to_json,
    parse,
    parse_latex,
    parse_mathml,
    parse_slt_string,
)
from mathparse.errors import ParseError
from mathparse.slt_latex import slt_to_latex
from mathparse.slt_string import to_slt_string, tree_from_slt_string, visual_key

__all__ = ["NOTATIONS", "FormulaGraphs", "ParseError", "graphs_to_json", "parse", "parse_latex", "parse_mathml",
           "parse_slt_string", "slt_to_latex", "to_slt_string", "tree_from_slt_string", "visual_key"]
