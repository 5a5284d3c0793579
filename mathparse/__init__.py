"""Formula parsing: LaTeX, Presentation MathML and Tangent SLT strings → Symbol Layout Trees and Operator Trees.

    from ml.formula import parse, to_slt_string
    g = parse(r"x^{2y}+1", "latex")
    to_slt_string(g.slt), g.opt
"""
from ml.formula.api import (
    NOTATIONS,
    FormulaGraphs,
    graphs_to_json,
    parse,
    parse_latex,
    parse_mathml,
    parse_slt_string,
)
from ml.formula.errors import ParseError
from ml.formula.slt_latex import slt_to_latex
from ml.formula.slt_string import to_slt_string, tree_from_slt_string, visual_key

__all__ = ["NOTATIONS", "FormulaGraphs", "ParseError", "graphs_to_json", "parse", "parse_latex", "parse_mathml",
           "parse_slt_string", "slt_to_latex", "to_slt_string", "tree_from_slt_string", "visual_key"]
