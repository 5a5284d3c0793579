"""Unicode math → LaTeX: a formula pasted from a PDF or a web page (`x² + y² = z²`, `∫₀^∞`, `√2`, `𝔽ₚ`) is read
as the LaTeX it stands for, so `x²` finds the formulas written `x^2` instead of an unknown symbol `²`.

The mapping comes from two maintained tables, not a list of our own (OVERRIDES are the few exceptions, each with
its reason). Scripts and vulgar fractions are Unicode's compatibility decompositions (`²` is `<super> 2`, `½` is
`<fraction> 1⁄2`); every other character is Günter Milde's `unimathsymbols.txt` (each math character with its LaTeX
and unicode-math commands and the packages they need; shipped with latex2mathml, whose reading of it gives the parser
its symbol commands: `mathparse.latex_symbols`), from its LaTeX column, so `≤` becomes `\\leq`, which the parser
reads back as `≤`, and `𝑥` becomes `x`. A command is kept only where the packages it needs are ones KaTeX implements
(KATEX_PACKAGES) and the parser knows it, so the LaTeX stays drawable and readable; other characters stay as typed,
as the parser reads them already. (pylatexenc's table writes `²` and `½` as text-mode commands, `\\texttwosuperior`,
`\\textonehalf`, that neither reads in math.)

Runs of scripts become one group (`x²³` → `x^{23}`), a radical takes the atom or group that follows
(`√(x+1)` → `\\sqrt{x+1}`), `\\text{…}` is left alone, and LaTeX mixed in (`\\frac{1}{n²}`) passes through.
`Reading.typed_pos` maps a position in the LaTeX back to the text as typed, so an error still points at what
was typed.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import latex2mathml

from mathparse.latex_symbols import KNOWN_COMMANDS, TEXT_COMMANDS

TABLE = Path(latex2mathml.__file__).with_name("unimathsymbols.txt")
KATEX_PACKAGES = frozenset({"amsmath", "amssymb", "amsfonts", "mathbb", "eufrak"})
"""Packages whose commands KaTeX draws; the table names the package a command needs (`\\mathfrak`: eufrak)."""
OVERRIDES = {
    # A prime typed after its base is LaTeX's `'` (a superscript); the table's `\prime` is the bare symbol.
    "′": "'", "″": "''", "‴": "'''", "⁗": "''''",
    # The middle dot, typed for a product, has no LaTeX column (only unicode-math's `\cdotp`).
    "·": r"\cdot",
}
SCRIPT_MARKS = {"<super>": "^", "<sub>": "_"}
_COMMAND = re.compile(r"\\[A-Za-z]+")
_WORD_END = re.compile(r"\\[A-Za-z]+$")
_RADICAL_CATEGORY = "mathradical"
_NEEDS_BASE = frozenset({"mathaccent", "mathover", "mathunder"})
"""Categories of combining marks, which the table writes as commands taking the mark's base: left as typed."""


@dataclass(frozen=True)
class Reading:
    """`latex`: the text with its Unicode math written in LaTeX; `origins[i]`: where its i-th character came from
    in the text as typed."""

    text: str
    latex: str
    origins: tuple[int, ...]

    @property
    def changed(self) -> bool:
        return self.latex != self.text

    def typed_pos(self, pos: int | None) -> int | None:
        """A position in `latex` as a position in the text as typed."""
        if pos is None:
            return None
        return self.origins[pos] if pos < len(self.origins) else len(self.text)


def from_unicode(text: str) -> Reading:
    """`text` with each Unicode math character written in LaTeX (see the module's docstring)."""
    return _Reader(text).read()


@cache
def symbols() -> dict[str, str]:
    """Character → LaTeX from the table (the first record of a code point), with OVERRIDES; read on first use."""
    table: dict[str, str] = {}
    for char, latex, category, requirements in records():
        if char.isascii() or char in table or not latex or category in _NEEDS_BASE:
            continue
        needed = {package for package in requirements.split() if not package.startswith("-")}
        if needed <= KATEX_PACKAGES and all(command in KNOWN_COMMANDS for command in _COMMAND.findall(latex)):
            table[char] = latex
    return {**table, **OVERRIDES}


@cache
def radicals() -> frozenset[str]:
    """√ ∛ ∜: written as their commands (`\\sqrt[3]`), then given the atom that follows as their argument."""
    return frozenset(char for char, _, category, _ in records() if category == _RADICAL_CATEGORY and char in symbols())


@cache
def records() -> tuple[tuple[str, str, str, str], ...]:
    """(character, LaTeX, TeX math category, packages needed) of each record of the table, in its order (also
    `mathparse.slt_latex`'s commands)."""
    found = []
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        fields = line.split("^")
        if not line.startswith("#") and len(fields) >= 7:
            found.append((chr(int(fields[0], 16)), fields[2], fields[5], fields[6]))
    return tuple(found)


def script(char: str) -> tuple[str, str] | None:
    """(`^` or `_`, the LaTeX of what it raises or lowers) for a superscript or subscript character whose base is
    math: a digit, a Latin or Greek letter, a sign or a parenthesis (ordinal indicators and IPA letters are not)."""
    tag, *codes = unicodedata.decomposition(char).split() or [""]
    if tag not in SCRIPT_MARKS or len(codes) != 1 or unicodedata.category(char) == "Lo":
        return None
    base = chr(int(codes[0], 16))
    if (base.isascii() and (base.isalnum() or base in "+=()")) or base in symbols():
        return SCRIPT_MARKS[tag], symbols().get(base, base)
    return None


def fraction(char: str) -> str | None:
    """`\\frac{1}{2}` for `½`: a vulgar fraction with a numerator and a denominator."""
    tag, *codes = unicodedata.decomposition(char).split() or [""]
    if tag != "<fraction>" or "2044" not in codes:
        return None
    slash = codes.index("2044")
    numerator, denominator = ("".join(chr(int(code, 16)) for code in part) for part in (codes[:slash], codes[slash + 1:]))
    return rf"\frac{{{numerator}}}{{{denominator}}}" if numerator and denominator else None


class _Reader:
    """One left-to-right pass: what a radical's argument closes is scheduled at its place (`closing`), so nested
    radicals cost no recursion."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.out: list[str] = []
        self.origins: list[int] = []
        self.closing: dict[int, int] = {}
        """Position in the text → `}`s to write before it (the end of a radical's argument)."""
        self.dropped: set[int] = set()
        """Parentheses around a radical's argument: its braces replace them."""
        self.chained: dict[int, int] = {}
        """A radical that is the argument of another (`√√x`) → where its own argument ends, found once."""
        self.pairs = _pairs(text)

    def read(self) -> Reading:
        i = 0
        while i < len(self.text):
            after = self.step(i)
            # an argument ends after what this step wrote, even where it ends inside it (`√²³` → `\sqrt{^{23}}`)
            self.emit("}" * sum(self.closing.pop(end, 0) for end in range(i + 1, after + 1)), after)
            i = after
        return Reading(self.text, "".join(self.out), tuple(self.origins))

    def step(self, i: int) -> int:
        """Write what starts at `i`; the position after it."""
        char = self.text[i]
        if char == "\\":
            return self.control_sequence(i)
        if found := script(char):
            return self.scripts(i, found[0])
        if i not in self.dropped:
            self.emit(char if char.isascii() else fraction(char) or symbols().get(char, char), i)
        if char in radicals():
            self.argument(i + 1)
        return i + 1

    def control_sequence(self, i: int) -> int:
        """A command as typed; a text command's argument is words, left as typed too."""
        match = _COMMAND.match(self.text, i)
        end = match.end() if match else min(i + 2, len(self.text))
        word = self.text[i:end]
        after = _skip_spaces(self.text, end)
        if word in TEXT_COMMANDS and after in self.pairs and self.text[after] == "{":
            end = self.pairs[after] + 1
        self.emit(self.text[i:end], i)
        return end

    def scripts(self, i: int, mark: str) -> int:
        """A run of superscripts (or of subscripts: `mark`) as one group."""
        start, parts = i, []
        while i < len(self.text) and (found := script(self.text[i])) and found[0] == mark:
            parts.append(found[1])
            i += 1
        self.emit("{" if self.out and self.out[-1] == mark else mark + "{", start)  # `x^²` as `x^{2}`
        for part in parts:
            self.emit(part, start)
        self.emit("}", start)
        return i

    def argument(self, i: int) -> None:
        """Make what follows a radical at `i` its argument: a `{…}` group as it is, a `(…)` group without its
        parentheses, a `[…]` group with them, a command with its `{…}` arguments, a number, one character, or a
        radical with its own argument; nothing there, an empty one."""
        start = _skip_spaces(self.text, i)
        if start < len(self.text) and self.text[start] == "{":
            return
        end = self.chained.pop(i - 1, None)
        if end is None:
            end = self.atom_end(start)
        self.emit("{", start)
        self.closing[end] = self.closing.get(end, 0) + 1

    def atom_end(self, start: int) -> int:
        """Where the argument starting at `start` ends; the roots it starts with (`√√x`) end there too."""
        end, chain = start, []
        while end < len(self.text) and self.text[end] in radicals():
            chain.append(end)
            end = _skip_spaces(self.text, end + 1)
        char = self.text[end] if end < len(self.text) else ""
        if char == "(" and end in self.pairs:  # plain text's grouping: the root's vinculum replaces it
            self.dropped.update((end, self.pairs[end]))
            end = self.pairs[end]
        elif char in "[{" and end in self.pairs:
            end = self.pairs[end] + 1
        elif char == "\\":
            end = match.end() if (match := _COMMAND.match(self.text, end)) else end + 2
            while (following := _skip_spaces(self.text, end)) in self.pairs and self.text[following] == "{":
                end = self.pairs[following] + 1
        elif char.isdigit():
            while end < len(self.text) and (self.text[end].isdigit() or self.text[end] == "."):
                end += 1
        elif char and not char.isspace() and char not in ")]}":
            end += 1
        self.chained.update((root, end) for root in chain)
        return end

    def emit(self, latex: str, origin: int) -> None:
        if not latex:
            return
        if latex[0].isascii() and latex[0].isalpha() and self.out and _WORD_END.search(self.out[-1]):
            latex = " " + latex  # `\cdot` then `x` must not become the command `\cdotx`
        self.out.append(latex)
        self.origins.extend([origin] * len(latex))


def _skip_spaces(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _pairs(text: str) -> dict[int, int]:
    """Each opening `(`, `[` or `{` → its closing partner, for those that have one (`\\{` is a brace symbol)."""
    pairs: dict[int, int] = {}
    open_at: dict[str, list[int]] = {"(": [], "[": [], "{": []}
    closes = {")": "(", "]": "[", "}": "{"}
    escaped = False
    for i, char in enumerate(text):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in open_at:
            open_at[char].append(i)
        elif char in closes and open_at[closes[char]]:
            pairs[open_at[closes[char]].pop()] = i
    return pairs
