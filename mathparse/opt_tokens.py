"""SLT baseline nodes → tokens for the operator-precedence parser of `mathparse.opt`.

A baseline is the chain of `n` edges; each node on it becomes one `Token`. Its sub-structures
(scripts `a b c d`, limits `o u`, radicands and group cells `w`/`e`) are parsed into OPT nodes
by the caller-supplied `parse` function before the token is returned, so the parser only ever
sees one flat level. Bare delimiters are then matched into group tokens by `match_delimiters`.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from mathparse.errors import ParseError
from mathparse.opt_nodes import leaf, make
from mathparse.opt_symbols import BIG_OPERATORS, CONSTANTS, FUNCTIONS, INFIX, PREFIX, PRIMES
from mathparse.tree import Node, node_type, node_value

OPENERS = frozenset("([{⟨⌊⌈")
CLOSERS = frozenset(")]}⟩⌋⌉")
BARS = frozenset({"|", "‖", "∥", "||"})
DIFFERENTIALS = frozenset({"d", "𝑑", "ⅆ", "\\mathrm{d}"})
SEPARATORS = frozenset({",", ";"})
_ESCAPES = {"&comma;": ",", "&lsqb;": "[", "&rsqb;": "]", "&lt;": "<", "&gt;": ">", "&amp;": "&",
            "&quest;": "?"}
_ESCAPE_RE = re.compile("|".join(map(re.escape, _ESCAPES)))
_MATRIX_RE = re.compile(r"^M!(\D*)(\d+)x(\d+)$")
"""`M!` fences (never digits: so the match is linear, where `(.*?)(\\d+)` was quadratic in a long label) rows `x`
columns."""
MAX_MATRIX_DIGITS = 6
"""Digits of a matrix's rows or columns at most: no formula within the length limit has a million cells."""
_SCRIPT_EDGES = ("b", "a", "d", "c", "o", "u")
SCRIPT_LABELS = {"b": "O!SUB", "a": "O!SUP", "d": "O!PRESUB", "c": "O!PRESUP", "o": "O!over",
                 "u": "O!under"}


@dataclass
class Token:
    """One baseline element. `kind` decides how the parser treats it:

    atom, func, big, infix, prefix, post, open, close, bar, sep, diff, sym, group.
    """

    kind: str
    text: str = ""
    base: Node | None = None
    scripts: dict[str, Node] = field(default_factory=dict)
    items: list[Node] | None = None        # group: parsed comma-separated contents
    rows: list[list[Node]] | None = None   # group: matrix cells, when 2-D
    opener: str = ""
    closer: str = ""

    def node(self) -> Node:
        """The operand this token stands for, scripts applied (SUB inside SUP, as Tangent)."""
        return with_scripts(self.required_base(), self.scripts)

    def required_base(self) -> Node:
        """`base`, which every atom, func, sym and diff token (and a prime) carries; raises if it is missing."""
        if self.base is None:
            raise ValueError(f"{self.kind!r} token {self.text!r} has no base node")
        return self.base


def with_scripts(base: Node, scripts: dict[str, Node]) -> Node:
    node = base
    for edge in _SCRIPT_EDGES:
        if edge in scripts:
            node = make(SCRIPT_LABELS[edge], [node, scripts[edge]])
    return node


def unescape(text: str) -> str:
    return _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group(0)], text)


Parse = Callable[[Node], Node]
"""Parses the baseline starting at a node into one OPT node (supplied by the OPT builder)."""

ParseCells = Callable[[Node], list[Node]]
"""Parses a baseline into its comma-separated items."""


def make_token(slt: Node, parse: Parse, parse_items: ParseCells) -> Token:
    label = slt.label
    # A bare `!` (factorial) reads as an empty type and value under the `type!value` split.
    kind, value = ("*", "!") if label == "!" else (node_type(label), unescape(node_value(label)))
    if kind == "M":
        return _matrix_token(slt, parse, parse_items)
    scripts = {edge: parse(child) for edge, child in slt.children if edge in SCRIPT_LABELS}
    if label == "O!divide" and "o" in scripts and "u" in scripts:
        return Token("atom", base=make("O!divide", [scripts.pop("o"), scripts.pop("u")]), scripts=scripts)
    if label == "O!root":
        return _root_token(slt, parse, scripts)
    if kind == "*":
        return _symbol_token(value, scripts)
    if kind in ("V", "F", "C"):
        return _identifier_token(kind, value, scripts)
    if label == "E!" and not scripts:  # an empty base (`{}^\circ`) only matters for its scripts
        return Token("skip")
    return Token("atom", base=leaf(f"T!{value.strip()}" if kind == "T" else label), scripts=scripts)


def _root_token(slt: Node, parse: Parse, scripts: dict[str, Node]) -> Token:
    radicand = slt.child("w")
    args = [parse(radicand) if radicand is not None else leaf("E!")]
    if "c" in scripts:
        args.append(scripts.pop("c"))
    return Token("atom", base=make("O!root", args), scripts=scripts)


def _symbol_token(value: str, scripts: dict[str, Node]) -> Token:
    if value in BIG_OPERATORS:
        return Token("big", text=BIG_OPERATORS[value], scripts=scripts)
    if value in CONSTANTS:
        return Token("atom", base=leaf(f"C!{CONSTANTS[value]}"), scripts=scripts)
    if value in PRIMES:
        return Token("post", text="prime", base=leaf(f"V!{value}"))
    simple = _SIMPLE_KINDS.get(value)
    if simple is not None:
        return Token(simple, text=value, scripts=scripts)
    if value in INFIX or value in PREFIX:
        return Token("infix" if value in INFIX else "prefix", text=value, scripts=scripts)
    return Token("sym", text=value, base=leaf(f"V!{value}"), scripts=scripts)


_SIMPLE_KINDS = {**{c: "open" for c in OPENERS}, **{c: "close" for c in CLOSERS},
                 **{c: "bar" for c in BARS}, **{c: "sep" for c in SEPARATORS},
                 **{c: "diff" for c in DIFFERENTIALS}, "!": "post", "%": "post", ".": "skip", "": "skip",
                 "&": "skip"}


def _identifier_token(kind: str, value: str, scripts: dict[str, Node]) -> Token:
    if kind == "F" or value in FUNCTIONS:
        if value in BIG_OPERATORS and _has_limits(scripts):
            return Token("big", text=BIG_OPERATORS[value], scripts=scripts)
        return Token("func", base=leaf(f"F!{value}"), scripts=scripts)
    if value in BIG_OPERATORS and (value == "lim" or _has_limits(scripts)):
        return Token("big", text=BIG_OPERATORS[value], scripts=scripts)
    if value in ("max", "min", "sup", "inf"):
        return Token("func", base=leaf(f"F!{value}"), scripts=scripts)
    if value in CONSTANTS:
        return Token("atom", base=leaf(f"C!{CONSTANTS[value]}"), scripts=scripts)
    if kind == "V" and value in DIFFERENTIALS and not scripts:
        return Token("diff", text=value, base=leaf(f"V!{value}"))
    return Token("atom", base=leaf(f"{kind}!{value}"), scripts=scripts)


def _has_limits(scripts: dict[str, Node]) -> bool:
    return any(edge in scripts for edge in ("a", "b", "o", "u"))


def _matrix_token(slt: Node, parse: Parse, parse_items: ParseCells) -> Token:
    match = _MATRIX_RE.match(unescape(slt.label))
    if match and max(len(match.group(2)), len(match.group(3))) > MAX_MATRIX_DIGITS:
        raise ParseError(f"a matrix label ({slt.label[:40]}…) gives more than {MAX_MATRIX_DIGITS} digits of rows or "
                         "columns", None, "invalid_slt_string")
    fences, rows, cols = (match.group(1), int(match.group(2)), int(match.group(3))) if match else ("", 1, 1)
    opener, closer = (fences[:1], fences[1:]) if fences not in BARS else (fences[:len(fences) // 2],
                                                                          fences[len(fences) // 2:])
    scripts = {edge: parse(child) for edge, child in slt.children if edge in SCRIPT_LABELS}
    cells = _cells(slt)
    if not cells and opener == "|" and not scripts:  # `||x||` laid out as two empty |…| groups
        return Token("bar", text="‖")
    token = Token("group", opener=opener, closer=closer, scripts=scripts)
    if rows > 1:
        parsed = [parse(cell) for cell in cells]
        width = max(cols, 1)
        token.rows = [parsed[i:i + width] for i in range(0, len(parsed), width)]
    else:
        token.items = [item for cell in cells for item in parse_items(cell)]
    return token


def _cells(slt: Node) -> list[Node]:
    """Cell heads of a group/matrix node: the `w` child, then the `e` chain (row-major)."""
    cells: list[Node] = []
    cell = slt.child("w")
    while cell is not None:
        cells.append(cell)
        cell = cell.child("e")
    cells.extend(child for edge, child in slt.children if edge == "e")
    return cells


def match_delimiters(tokens: list[Token], to_group: Callable[[Token, Token, list[Token]], Token]) -> list[Token]:
    """Pair bare opening/closing delimiters (and `|…|`) into group tokens; drop unmatched ones.

    A bar closes the innermost open bar of the same kind unless it directly follows an
    operator (then it opens a new one), which reads `|a|+|b|` and `||x||` as intended. A bar
    left unpaired separates like `:` (`P(A|B)`, `\\{x | x>0\\}`), not a delimiter.
    """
    out: list[Token] = []
    stack: list[tuple[Token, int]] = []
    for tok in tokens:
        if tok.kind == "bar" and stack and stack[-1][0].text == tok.text and _closes_bar(out, stack[-1][1]):
            tok = Token("close", text=tok.text, scripts=tok.scripts)
        if tok.kind in ("open", "bar"):
            stack.append((tok, len(out)))
            out.append(tok)
        elif tok.kind == "close":
            if stack:
                opener, start = stack.pop()
                inner = out[start + 1:]
                del out[start:]
                out.append(to_group(opener, tok, inner))
        elif tok.kind == "atom" and out and _is_digits(out[-1]) and _is_digits(tok):
            digits = f"{out[-1].required_base().label}{tok.required_base().label[2:]}"
            out[-1] = Token("atom", base=leaf(digits))  # `1\ 000`
        elif tok.kind != "skip":
            out.append(tok)
    unpaired = {id(opener) for opener, _ in stack}
    return [Token("infix", text="|", scripts=tok.scripts) if tok.kind == "bar" else tok
            for tok in out if id(tok) not in unpaired or tok.kind == "bar"]


def _is_digits(tok: Token) -> bool:
    if tok.kind != "atom" or tok.scripts:
        return False
    base = tok.required_base()
    return base.label.startswith("N!") and not base.children


def _closes_bar(out: list[Token], start: int) -> bool:
    return len(out) > start + 1 and out[-1].kind not in ("infix", "prefix", "sep", "open", "bar")
