"""The operator vocabulary shared by both OPT builders (SLT → OPT and Content MathML → OPT).

One table maps every spelling of an operator — the Unicode symbol of an SLT (`≤`), a LaTeX
name (`\\le`), a Content MathML element (`leq`) or a LaTeXML csymbol (`similar-to`) — to one
OPT label and a precedence, so that the two builders emit comparable trees.

Label scheme (also documented in `mathparse.opt`): `U!…` commutative (children unordered,
edge "0", sorted canonically, nested same operators flattened), `O!…` ordered (edges "0","1",…),
`F!…` a function applied to its arguments (the function node is the parent of its arguments),
`N!` numbers, `V!` variables, `C!` constants (π, ∞, ∅, …), `T!` text.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OpInfo:
    """How an infix/prefix operator builds: its OPT label and binding power (higher binds tighter)."""

    label: str
    prec: int


# Binding powers, low → high. Logic sits *below* relations so that `a=b \land c=d` groups as
# (a=b)∧(c=d); chains of relations are combined by the parser, not by associativity.
SEP, COLON, IMPLIES, OR, AND, REL, SETOP, ADD, MUL, DIV, UNARY = range(1, 12)

_INFIX_SPELLINGS: dict[OpInfo, tuple[str, ...]] = {
    OpInfo("O!colon", COLON): (":",),
    OpInfo("O!divides", COLON): ("|",),  # an unpaired bar: "such that" / "given", binding like `:`
    OpInfo("O!implies", IMPLIES): ("⇒", "⟹", "\\implies", "\\Rightarrow", "\\Longrightarrow", "implies"),
    OpInfo("U!iff", IMPLIES): ("⇔", "⟺", "\\iff", "\\Leftrightarrow", "\\Longleftrightarrow", "iff",
                               "↔", "\\leftrightarrow",
                               "equivalent-to"),
    OpInfo("O!impliedby", IMPLIES): ("⇐", "⟸", "\\impliedby", "\\Leftarrow"),
    OpInfo("U!or", OR): ("∨", "\\lor", "\\vee", "or"),
    OpInfo("U!and", AND): ("∧", "\\land", "\\wedge", "and"),
    OpInfo("U!eq", REL): ("=", "eq"),
    OpInfo("U!neq", REL): ("≠", "\\ne", "\\neq", "neq"),
    OpInfo("O!lt", REL): ("<", "lt", "&lt;"),
    OpInfo("O!gt", REL): (">", "gt", "&gt;"),
    OpInfo("O!leq", REL): ("≤", "⩽", "\\le", "\\leq", "\\leqslant", "leq"),
    OpInfo("O!geq", REL): ("≥", "⩾", "\\ge", "\\geq", "\\geqslant", "geq"),
    OpInfo("O!ll", REL): ("≪", "\\ll", "much-less-than"),
    OpInfo("O!gg", REL): ("≫", "\\gg", "much-greater-than"),
    OpInfo("U!approx", REL): ("≈", "\\approx", "approx"),
    OpInfo("U!equiv", REL): ("≡", "\\equiv", "equivalent"),
    OpInfo("U!sim", REL): ("∼", "~", "\\sim", "similar-to"),
    OpInfo("U!simeq", REL): ("≃", "\\simeq", "similar-to-or-equals"),
    OpInfo("U!cong", REL): ("≅", "\\cong", "approximately-equals"),
    OpInfo("O!propto", REL): ("∝", "\\propto", "proportional-to"),
    OpInfo("O!in", REL): ("∈", "\\in", "in"),
    OpInfo("O!notin", REL): ("∉", "\\notin", "notin"),
    OpInfo("O!ni", REL): ("∋", "\\ni", "contains"),
    OpInfo("O!subset", REL): ("⊂", "\\subset", "subset", "prsubset"),
    OpInfo("O!subseteq", REL): ("⊆", "\\subseteq", "subset-of-or-equals"),
    OpInfo("O!nsubset", REL): ("⊄", "\\not\\subset", "not-subset-of"),
    OpInfo("O!nsubseteq", REL): ("⊈", "\\nsubseteq", "not-subset-of-or-equals"),
    OpInfo("O!supset", REL): ("⊃", "\\supset", "superset-of"),
    OpInfo("O!supseteq", REL): ("⊇", "\\supseteq", "superset-of-or-equals"),
    OpInfo("O!to", REL): ("→", "⟶", "\\to", "\\rightarrow", "\\longrightarrow", "tends"),
    OpInfo("O!mapsto", REL): ("↦", "⟼", "\\mapsto", "maps-to"),
    OpInfo("O!divides", REL): ("∣", "\\mid", "divides", "conditional"),
    OpInfo("O!perp", REL): ("⊥", "\\perp", "perpendicular-to"),
    OpInfo("O!assign", REL): (":=", "≔", "assign"),
    OpInfo("O!mod", REL): ("mod", "\\bmod", "\\mod", "modulo"),
    OpInfo("U!union", SETOP): ("∪", "\\cup", "union"),
    OpInfo("U!intersect", SETOP): ("∩", "\\cap", "intersect"),
    OpInfo("O!setminus", SETOP): ("∖", "\\setminus", "\\backslash", "setdiff"),
    OpInfo("U!plus", ADD): ("+", "plus"),
    OpInfo("O!minus", ADD): ("-", "−", "minus"),
    OpInfo("O!pm", ADD): ("±", "\\pm", "plus-or-minus"),
    OpInfo("O!mp", ADD): ("∓", "\\mp", "minus-or-plus"),
    OpInfo("U!oplus", ADD): ("⊕", "\\oplus", "direct-sum"),
    OpInfo("U!times", MUL): ("×", "⋅", "·", "*", "∗", "∙", "\\times", "\\cdot", "\\ast", "times"),
    OpInfo("O!otimes", MUL): ("⊗", "\\otimes", "tensor-product"),
    OpInfo("O!compose", MUL): ("∘", "\\circ", "compose"),
    OpInfo("O!divide", DIV): ("/", "÷", "\\div", "divide"),
}
INFIX: dict[str, OpInfo] = {s: info for info, spellings in _INFIX_SPELLINGS.items() for s in spellings}
"""Spelling → operator; the same spelling never names two operators."""

SIGNS = frozenset({"-", "−", "+", "±", "∓"})
"""Additive operators that also work as prefixes (`-x`, `\\pm 1`): such a sign takes the product that follows."""

PREFIX: dict[str, str] = {
    "¬": "O!not", "\\neg": "O!not", "\\lnot": "O!not", "not": "O!not",
    "∀": "O!forall", "\\forall": "O!forall", "for-all": "O!forall", "forall": "O!forall",
    "∃": "O!exists", "\\exists": "O!exists", "exists": "O!exists",
    "∄": "O!nexists", "not-exists": "O!nexists",
    "∂": "O!partial", "partialdiff": "O!partial", "∇": "O!nabla",
}
"""Prefix operators taking the product that follows (`\\neg p`, `\\forall x`, `∂f`)."""

BIG_OPERATORS: dict[str, str] = {
    "∑": "O!sum", "sum": "O!sum", "∏": "O!prod", "product": "O!prod", "prod": "O!prod",
    "∫": "O!int", "int": "O!int", "∬": "O!iint", "∭": "O!iiint", "∮": "O!oint",
    "lim": "O!lim", "limit": "O!lim", "lim sup": "O!limsup", "limsup": "O!limsup",
    "limit-supremum": "O!limsup", "lim inf": "O!liminf", "liminf": "O!liminf",
    "limit-infimum": "O!liminf", "sup": "O!sup", "supremum": "O!sup", "inf": "O!inf",
    "infimum": "O!inf", "⋃": "O!bigcup", "⋂": "O!bigcap", "⨁": "O!bigoplus", "⋀": "O!bigwedge",
    "⋁": "O!bigvee", "max": "O!max", "min": "O!min", "argmax": "O!argmax", "argmin": "O!argmin",
}
"""Operators whose limits sit under/over (or as scripts) and which take a following body."""

INTEGRALS = frozenset({"O!int", "O!iint", "O!iiint", "O!oint"})

FUNCTIONS = frozenset(
    "sin cos tan cot sec csc arcsin arccos arctan arccot arcsec arccsc sinh cosh tanh coth sech "
    "csch arsinh arcosh artanh log ln lg exp det dim ker deg gcd lcm Pr arg hom sgn sign tr Tr "
    "Re Im erf rank span diag Var Cov".split()
)
"""Named functions; Tangent SLTs spell them as variables (`V!sin`), OPTs as `F!sin`."""

CMML_FUNCTIONS = {"determinant": "det", "hyperbolic-cotangent": "coth", "arcsinh": "arsinh"}
"""Content MathML element / csymbol names of functions whose OPT name differs."""

FUNCTION_LETTERS = frozenset("f g h F G H".split())
"""Letters read as a function when directly followed by a parenthesised group: `f(x)` is
f applied to x, while `x(1-x)` stays a product. Other letters are never applied."""

CONSTANTS = {"π": "π", "\\pi": "π", "pi": "π", "∞": "∞", "\\infty": "∞", "infinity": "∞",
             "∅": "∅", "\\emptyset": "∅", "emptyset": "∅", "ℵ": "ℵ", "…": "…", "⋯": "…",
             "\\ldots": "…", "\\cdots": "…", "ellipsis": "…"}
"""Symbols that are constants: `C!π`, `C!∞`, …; `e` and `i` stay variables (context decides)."""

PRIMES = frozenset({"′", "″", "‴", "′′", "′′′", "'", "''"})

DELIMITED = {"|": "O!abs", "abs": "O!abs", "‖": "O!norm", "∥": "O!norm", "norm": "O!norm",
             "⌊": "O!floor", "floor": "O!floor", "⌈": "O!ceil", "ceiling": "O!ceil",
             "⟨": "O!angle"}
"""Opening delimiter (or MathML name) → the operator a delimited group denotes."""

CMML_SCRIPTS = {"superscript": "O!SUP", "subscript": "O!SUB"}
"""LaTeXML's `csymbol cd="ambiguous"` names of scripts."""
