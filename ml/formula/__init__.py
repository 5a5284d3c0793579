"""Formula understanding: LaTeX, Presentation MathML and Tangent SLT strings → Symbol Layout Trees and Operator Trees.

    from ml.formula import parse_latex
    g = parse_latex(r"x^{2y}+1")
    g.slt.to_slt_string(), g.opt
"""
from ml.formula.api import FormulaGraphs, graphs_to_json, parse_latex, parse_mathml, parse_slt_string
from ml.formula.errors import ParseError

__all__ = ["FormulaGraphs", "ParseError", "graphs_to_json", "parse_latex", "parse_mathml", "parse_slt_string"]
