"""What each LaTeX command means for the layout tree: symbol tables following Tangent-S / LaTeXML conventions.

The conventions are read off the ARQMath Tangent-S strings: functions such as `\\sin` are variables (`V!sin`),
`\\lim`, `\\sup`, `\\det`, `\\mod` are bare operator symbols, big operators and `\\lim` put their limits
over / under (`o` / `u`), accents hang over their base (`o`), spacing leaves no trace.
"""
from __future__ import annotations

import unicodedata

from latex2mathml.symbols_parser import SYMBOLS

_OVERRIDES = {
    r"\cdot": "⋅", r"\centerdot": "⋅", r"\colon": ":", r"\lt": "<", r"\gt": ">", r"\ne": "≠", r"\neq": "≠",
    r"\le": "≤", r"\leq": "≤", r"\ge": "≥", r"\geq": "≥", r"\to": "→", r"\gets": "←", r"\implies": "⟹",
    r"\impliedby": "⟸", r"\iff": "⟺", r"\land": "∧", r"\lor": "∨", r"\lnot": "¬", r"\neg": "¬",
    r"\ldots": "…", r"\dots": "…", r"\dotsc": "…", r"\cdots": "⋯", r"\vdots": "⋮", r"\ddots": "⋱",
    r"\emptyset": "∅", r"\varnothing": "∅", r"\epsilon": "ϵ", r"\varepsilon": "ε", r"\phi": "ϕ",
    r"\varphi": "φ", r"\coloneqq": ":=", r"\coloneq": ":=", r"\backslash": "\\", r"\prime": "′",
    r"\setminus": "∖", r"\smallsetminus": "∖", r"\vert": "|", r"\mid": "∣", r"\Vert": "∥", r"\|": "∥",
    r"\lvert": "|", r"\rvert": "|", r"\lVert": "∥", r"\rVert": "∥", r"\{": "{", r"\}": "}", r"\lbrace": "{",
    r"\rbrace": "}", r"\lbrack": "[", r"\rbrack": "]", r"\%": "%", r"\$": "$", r"\#": "#", r"\&": "&",
    r"\_": "_", r"\star": "⋆", r"\ast": "∗", r"\Re": "ℜ", r"\Im": "ℑ", r"\tilde": "~",
    r"\dagger": "†", r"\sim": "∼", r"\leqslant": "≤", r"\geqslant": "≥",
}
VARIABLE_SYMBOLS = frozenset("∞…⋯⋮⋱∅¬∠△ℵℓ℘ℏ")
"""Non-letters that LaTeXML marks up as identifiers (<mi>), hence `V!` nodes in Tangent strings."""

FUNCTIONS = frozenset(
    "sin cos tan cot sec csc arcsin arccos arctan arccot sinh cosh tanh coth sech csch log ln lg exp "
    "gcd lcm arg deg ker hom Pr max min tr Tr rank sgn sign span id Res diag Var Cov erf".split()
)
OPERATOR_NAMES = {"lim": "lim", "limsup": "lim sup", "liminf": "lim inf", "sup": "sup", "inf": "inf",
                  "det": "det", "dim": "dim", "mod": "mod", "bmod": "mod"}
"""Named operators that Tangent writes as bare symbols (LaTeXML <mo>)."""
LIMIT_NAMES = frozenset({"lim", "lim sup", "lim inf", "sup", "inf", "det", "max", "min", "gcd", "Pr"})

BIG_OPERATORS = {
    r"\sum": "∑", r"\prod": "∏", r"\coprod": "∐", r"\int": "∫", r"\iint": "∬", r"\iiint": "∭",
    r"\oint": "∮", r"\bigcup": "⋃", r"\bigcap": "⋂", r"\bigoplus": "⨁", r"\bigotimes": "⨂",
    r"\bigodot": "⨀", r"\bigvee": "⋁", r"\bigwedge": "⋀", r"\biguplus": "⨄", r"\bigsqcup": "⨆",
}

ACCENTS = {  # command -> (relation, mark)
    r"\hat": ("o", "^"), r"\widehat": ("o", "^"), r"\bar": ("o", "¯"), r"\overline": ("o", "¯"),
    r"\tilde": ("o", "~"), r"\widetilde": ("o", "~"), r"\dot": ("o", "˙"), r"\ddot": ("o", "¨"),
    r"\vec": ("o", "→"), r"\overrightarrow": ("o", "→"), r"\overleftarrow": ("o", "←"),
    r"\check": ("o", "ˇ"), r"\breve": ("o", "˘"), r"\acute": ("o", "´"), r"\grave": ("o", "`"),
    r"\mathring": ("o", "˚"), r"\overbrace": ("o", "⏞"), r"\underline": ("u", "¯"),
    r"\underbrace": ("u", "⏟"),
}

IGNORED = frozenset(
    r"\, \; \: \! \> \  \quad \qquad \enspace \thinspace \medspace \thickspace \negthinspace \negmedspace "
    r"\displaystyle \textstyle \scriptstyle \scriptscriptstyle \limits \nolimits \hline \hdashline "
    r"\nonumber \notag \mathstrut \strut \allowbreak \nobreak \relax \noindent \centering \smallskip "
    r"\medskip \bigskip \it \small \large \Large \LARGE \huge \Huge \normalsize \tiny \footnotesize "
    r"\scriptsize \middle \left. \right. \space \hfill \hfil \displaybreak \par".split()
) | {"\\ ", "\\\n", "\\\t"}
FONT_SWITCHES = {r"\rm": "UPRIGHT", r"\bf": "BOLD", r"\cal": "SCRIPT", r"\sf": "SANS-SERIF", r"\tt": "MONOSPACE",
                 r"\frak": "FRAKTUR"}
"""Plain TeX font switches: they set the rest of their group (`{\\bf x}`, `{\\rm mul}`)."""
DIMENSION_SKIPS = frozenset(r"\hskip \vskip \kern \mkern \mskip \hglue".split())
"""Spacing commands followed by a TeX dimension (`\\hskip 35.5pt`), dropped with it."""
SIZED_DELIMITERS = frozenset(
    r"\big \Big \bigg \Bigg \bigl \bigr \Bigl \Bigr \biggl \biggr \Biggl \Biggr \bigm \Bigm \biggm \Biggm".split()
)
SKIP_ONE_ARGUMENT = frozenset(
    r"\hspace \vspace \hspace* \vspace* \phantom \hphantom \vphantom \label \tag \tag* \color \mspace".split()
)
TRANSPARENT = frozenset(
    r"\boxed \mathop \mathord \mathbin \mathrel \mathopen \mathclose \mathpunct \mathinner \fbox \smash "
    r"\displaylines \mathnormal \mathit \emph \pmb".split()
)
TEXT_COMMANDS = frozenset(r"\text \textrm \textbf \textit \textsf \texttt \mbox \hbox \textnormal \textup \textmd".split())
FONT_STYLES = {
    r"\mathbb": "DOUBLE-STRUCK", r"\Bbb": "DOUBLE-STRUCK", r"\mathbf": "BOLD", r"\boldsymbol": "BOLD ITALIC",
    r"\bm": "BOLD ITALIC", r"\mathcal": "SCRIPT", r"\mathscr": "SCRIPT", r"\mathfrak": "FRAKTUR",
    r"\mathsf": "SANS-SERIF", r"\mathtt": "MONOSPACE",
}
UPRIGHT_NAMES = frozenset(r"\mathrm \operatorname \operatorname* \mathrm* \textup".split())
FRACTIONS = frozenset(r"\frac \dfrac \tfrac \cfrac".split())
BINOMIALS = frozenset(r"\binom \dbinom \tbinom".split())
OVER_UNDER = {r"\overset": "o", r"\stackrel": "o", r"\underset": "u"}
ARROWS_WITH_LABELS = {r"\xrightarrow": "→", r"\xleftarrow": "←", r"\xmapsto": "↦"}

ENVIRONMENT_FENCES = {
    "matrix": "", "smallmatrix": "", "array": "", "subarray": "", "aligned": "", "align": "", "align*": "",
    "alignat": "", "alignat*": "", "alignedat": "", "eqnarray": "", "eqnarray*": "", "gather": "",
    "gather*": "", "gathered": "", "split": "", "equation": "", "equation*": "", "multline": "",
    "multline*": "", "pmatrix": "()", "bmatrix": "[]", "Bmatrix": "{}", "vmatrix": "||", "Vmatrix": "∥∥",
    "cases": "{", "dcases": "{", "rcases": "}", "array*": "",
}
PLAIN_TEX_TABLES = {r"\matrix": "", r"\pmatrix": "()", r"\bmatrix": "[]", r"\vmatrix": "||", r"\cases": "{",
                    r"\eqalign": "", r"\eqalignno": "", r"\array": ""}
r"""Plain TeX / MathJax tables written as one brace argument, rows separated by `\cr` or `\\`."""
ENVIRONMENTS_WITH_SPEC = frozenset({"array", "subarray", "alignat", "alignat*", "alignedat", "array*"})
SINGLE_CELL_ENVIRONMENTS = frozenset({"equation", "equation*"})

_STRUCTURAL = (
    set(FONT_STYLES) | UPRIGHT_NAMES | FRACTIONS | BINOMIALS | set(OVER_UNDER) | set(ARROWS_WITH_LABELS)
    | set(ACCENTS) | IGNORED | set(FONT_SWITCHES) | DIMENSION_SKIPS | SIZED_DELIMITERS | SKIP_ONE_ARGUMENT
    | TRANSPARENT | TEXT_COMMANDS | set(BIG_OPERATORS)
    | {"\\" + name for name in FUNCTIONS | set(OPERATOR_NAMES)}
    | {r"\sqrt", r"\left", r"\right", r"\begin", r"\end", r"\not", r"\pmod", r"\textcolor", r"\substack",
       r"\operatorname", r"\over", r"\atop", r"\choose", r"\cr", r"\newline"}
    | set(PLAIN_TEX_TABLES)
)
KNOWN_COMMANDS = frozenset(_STRUCTURAL | set(SYMBOLS) | set(_OVERRIDES))
MAX_COMMAND_LENGTH = max(len(command) for command in KNOWN_COMMANDS)


def symbol_char(command: str) -> str | None:
    """The Unicode character a symbol command stands for (`\\le` → `≤`), or None."""
    if command in _OVERRIDES:
        return _OVERRIDES[command]
    code = SYMBOLS.get(command)
    return chr(int(code.split()[0], 16)) if code else None


def symbol_label(char: str) -> str:
    """SLT label of a single symbol: letters and letter-like symbols are variables, the rest bare operators."""
    if char.isdigit():
        return "N!" + char
    if char.isalpha() or char in VARIABLE_SYMBOLS:
        return "V!" + char
    return char


def styled(char: str, style: str) -> str:
    """`R` in `\\mathbb` → `ℝ`, `\\Pi` in `\\mathbf` → `𝚷`: the Unicode mathematical alphanumeric, or the character
    unchanged if none exists."""
    if char.isascii() and char.isalnum():
        case = "DIGIT" if char.isdigit() else ("CAPITAL" if char.isupper() else "SMALL")
        name = unicodedata.name(char).split()[-1] if char.isdigit() else char.upper()
    elif unicodedata.name(char, "").startswith(("GREEK CAPITAL LETTER ", "GREEK SMALL LETTER ")):
        _, case, _, name = unicodedata.name(char).split(" ", 3)
    else:
        return char
    for candidate in (f"MATHEMATICAL {style} {case} {name}", f"{style} {case} {name}",
                      f"{'BLACK-LETTER' if style == 'FRAKTUR' else style} {case} {name}"):
        try:
            return unicodedata.lookup(candidate)
        except KeyError:
            continue
    return char
