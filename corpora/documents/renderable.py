"""A formula's LaTeX made renderable by the site's KaTeX without losing what it says: a command KaTeX does not
know (a class's `\\bbbk`, a package's `\\abs`, an internal `\\foo@bar`) would make KaTeX show the whole formula
as an error, so it is written as its name set upright instead, and an environment KaTeX lacks as one it has.

* In math, `\\foo` → `\\operatorname{foo}`: most unknown commands are names of operators and functions (`\\Tr`,
  `\\sgn`, `\\diag`), which `\\operatorname` spaces as TeX spaces `\\sin`, and which the formula parser then
  reads as it reads `\\sin` (`\\operatorname{Tr} A` is Tr applied to A). Braced where KaTeX reads one token as an
  argument (after `^`, `_` or a command taking one), which a bare `\\operatorname` cannot be; after `\\left`,
  `\\right` and the `\\big` family as `.\\operatorname{foo}` (no delimiter, then the name).
* In text (`\\text{…}`, `\\mbox{…}`), where `\\operatorname` is refused: `\\textrm{foo}`.
* A symbol KaTeX knows only in the other mode is set in that one: `\\ss` in math as `\\text{\\ss}`, `\\alpha` in
  text as `$\\alpha$`.
* `@` is a letter, as KaTeX's lexer reads it (`\\foo@bar` is one command).
* A dollar in math, which marked math inside the text argument of a command KaTeX lacks (`\\ce{NO_$x$}`), is
  dropped; `#`, a macro's parameter shown in its definition, is written `\\#`.
* Unknown control symbols: TeX's invisible ones (`\\/`, `\\-`, `\\@`, `\\*`) dropped, others written as their
  character.
* Environments KaTeX lacks: a known alias (`multline` → `gathered`, `psmallmatrix` → `pmatrix`), else `aligned`,
  which holds any body, `&` and `\\\\` included, in either mode (their arguments stay, as a group of text). Those
  KaTeX sets only in display mode (`align`, `split`) are known ones, kept: a formula's text does not say how it
  is shown, and a formula of such an environment is a display one.

The names KaTeX knows are those of `katex_names.txt`, written by `scripts/katex_names.mjs` from KaTeX itself.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

NAMES_FILE = Path(__file__).with_name("katex_names.txt")
_COMMAND = re.compile(r"\\([A-Za-z@]+|.)", re.DOTALL)
_TOKEN = re.compile(r"\\(begin|end)\s*\{([^{}]*)\}|\\([A-Za-z@]+)|\\(.)|([{}$^_])", re.DOTALL)
TEXT_COMMANDS = frozenset({"text", "textrm", "textsf", "texttt", "textnormal", "textbf", "textit", "textmd",
                           "textup", "textsl", "textsc", "emph", "mbox", "hbox", "fbox", "framebox", "makebox"})
"""Commands whose braced argument is text, where `\\operatorname` is refused."""
DELIMITER_COMMANDS = frozenset({"left", "right", "middle"} | {
    size + side for size in ("big", "Big", "bigg", "Bigg") for side in ("", "l", "m", "r")})
_INVISIBLE_SYMBOLS = frozenset("/-@*")
_ONLY_ITS_ARGUMENT = frozenset({"ensuremath", "lefteqn"})
"""Commands whose argument alone is what a formula shows, as a group: `\\ensuremath` only makes sure it is math,
and `\\lefteqn` (an `eqnarray` line's left side) only lets it overlap the columns."""
SITE_MACROS = {"qvar": "1", "qvar@construct": "1", "mbox": "1"}
"""The site's own KaTeX macros (static/js/render_math.js `texMacros`), with their argument counts: a query's
`\\qvar{x}` is drawn as a boxed variable, never an unknown command."""
ENVIRONMENT_ALIASES = {
    "multline": "gathered", "multlined": "gathered", "dmath": "gathered", "flalign": "aligned", "eqnarray": "aligned",
    "dgroup": "aligned", "IEEEeqnarray": "aligned", "IEEEeqnarraybox": "aligned", "xalignat": "alignedat",
    "xxalignat": "alignedat", "tabular": "array", "tabularx": "array", "numcases": "cases", "subnumcases": "cases",
    "spmatrix": "pmatrix", "psmallmatrix": "pmatrix", "bsmallmatrix": "bmatrix", "Bsmallmatrix": "Bmatrix",
    "vsmallmatrix": "vmatrix", "Vsmallmatrix": "Vmatrix",
}
"""Package environments KaTeX lacks, and the KaTeX one that shows their body best; others become `aligned`."""


@dataclass(frozen=True)
class KatexNames:
    version: str
    math: dict[str, str]
    """The commands KaTeX knows in math (no backslash) → the fewest braced arguments it renders with: "0",
    "1", "2", or "-" (none of these: `\\left`)."""
    text: dict[str, str]
    """The same in text (inside `\\text{…}`), where KaTeX knows other commands (`\\ss`, `\\textbackslash`)."""
    environments: dict[str, str]
    """Name → "inline" (any mode) or "display" (display mode only)."""
    plain: frozenset[str]
    """The commands a formula may hold and be returned as it is: those of math, but for `\\begin`, `\\end` and
    the commands of text, inside which other names are known."""


@cache
def katex_names() -> KatexNames:
    lines = NAMES_FILE.read_text(encoding="utf-8").splitlines()
    version = lines[0].split()[2].rstrip(":") if lines and lines[0].startswith("# KaTeX ") else ""
    math: dict[str, str] = {}
    text: dict[str, str] = {}
    environments: dict[str, str] = {}
    for line in lines:
        name, *values = line.split("\t")
        if name.startswith("\\") and len(values) == 2:
            for mode, count in zip((math, text), values, strict=True):
                if count != "no":
                    mode[name[1:]] = count
        elif name.startswith("{") and values:
            environments[name[1:-1]] = values[0]
    return KatexNames(version, math, text, environments, frozenset(math) - {"begin", "end"} - TEXT_COMMANDS)


def renderable(latex: str) -> str:
    """`latex` with every command and environment KaTeX lacks written as one it has (see the module); the same
    text when it has none, which a set lookup over its commands decides."""
    names = katex_names()
    if "$" not in latex and "#" not in latex and names.plain.issuperset(_COMMAND.findall(latex)):
        return latex
    return _rewrite(latex, names)


def _rewrite(latex: str, names: KatexNames) -> str:
    rewriter = _Rewriter(names)
    end = 0
    for match in _TOKEN.finditer(latex):
        rewriter.gap(latex[end:match.start()])
        end = match.end()
        environment_command, environment, word, symbol, char = match.groups()
        if environment_command:
            rewriter.write(f"\\{environment_command}{{{_environment(environment, names)}}}")
        elif word is not None or symbol is not None:
            rewriter.command(word or symbol, match.group(), is_symbol=word is None)
        else:
            rewriter.char(char)
    rewriter.gap(latex[end:])
    return "".join(rewriter.out)


@dataclass
class _Rewriter:
    """The text written so far and what KaTeX will read the next token as."""

    names: KatexNames
    out: list[str] = field(default_factory=list)
    groups: list[tuple[str, int]] = field(default_factory=list)
    """Per open brace: the mode and `wanted` outside it."""
    mode: str = "math"
    """"math", "text", or "inline" (math between dollars inside text)."""
    wanted: int = 0
    """How many of the next tokens KaTeX reads as arguments, one token each (`\\frac\\alpha\\beta`)."""
    text_next: bool = False
    """The next group is text (after `\\text`)."""
    delimiter: bool = False
    """The next token is a delimiter (after `\\left`)."""

    def write(self, text: str) -> None:
        self.out.append(text)
        self.wanted, self.text_next, self.delimiter = 0, False, False

    def gap(self, text: str) -> None:
        self.out.append(text.replace("#", "\\#"))  # a macro's parameter shown in its definition, `#1`
        if consumed := sum(not char.isspace() for char in text):  # `\frac12`: each character is an argument
            self.wanted, self.text_next, self.delimiter = max(self.wanted - consumed, 0), False, False

    def command(self, name: str, written: str, is_symbol: bool) -> None:
        count = (self.names.text if self.mode == "text" else self.names.math).get(name, SITE_MACROS.get(name))
        if count is None:
            self.unknown(name, is_symbol)
            return
        self.out.append(written)
        arguments = 1 if count == "-" else int(count)
        self.wanted = arguments or max(self.wanted - 1, 0)
        self.text_next, self.delimiter = name in TEXT_COMMANDS, name in DELIMITER_COMMANDS

    def unknown(self, name: str, is_symbol: bool) -> None:
        """A command KaTeX does not know here: from the other mode when it is a symbol there (`\\ss` in math,
        `\\alpha` in text), else its name (see the module)."""
        other = self.names.math if self.mode == "text" else self.names.text
        if other.get(name) == "0":
            shown = f"$\\{name}$" if self.mode == "text" else f"\\text{{\\{name}}}"
        elif name in _INVISIBLE_SYMBOLS or name in _ONLY_ITS_ARGUMENT:  # `\@` is a word to KaTeX's lexer
            shown = ""
        elif is_symbol:
            shown = name
        elif self.mode == "text":
            shown = f"\\textrm{{{name}}}"
        elif self.delimiter:
            shown = f".\\operatorname{{{name}}}"
        else:
            shown = f"\\operatorname{{{name}}}"
        if self.wanted and self.mode != "text" and shown.startswith("\\"):
            shown = "{" + shown + "}"
        self.out.append(shown)
        self.wanted, self.text_next, self.delimiter = max(self.wanted - bool(shown), 0), False, False

    def char(self, char: str) -> None:
        mode, wanted = self.mode, 0
        if char == "{":
            self.groups.append((self.mode, self.wanted))
            mode = "text" if self.text_next else "math" if self.mode == "inline" else self.mode
        elif char == "}" and self.groups:
            mode, outside = self.groups.pop()
            wanted = max(outside - 1, 0)
        elif char == "$" and self.mode == "math":  # math in math: a text argument of a command KaTeX lacks
            char = " "  # not nothing: `$\alpha$b` must not become `\alphab`
        elif char == "$":
            mode = "inline" if self.mode == "text" else "text"
        elif char in "^_":
            wanted = 1
        self.write(char)
        self.mode, self.wanted = mode, wanted


def _environment(name: str, names: KatexNames) -> str:
    if name.strip() in names.environments:
        return name
    return ENVIRONMENT_ALIASES.get(name.strip().removesuffix("*"), "aligned")
