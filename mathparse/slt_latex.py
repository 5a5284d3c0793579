"""Symbol Layout Tree → LaTeX, so that a formula known only as a Tangent SLT string can be typeset by KaTeX.

The inverse of the LaTeX parser where there is one: symbols go back through the tables of `latex_symbols`
(`∑` → `\\sum`, `α` → `\\alpha`, `ℝ` → `\\mathbb{R}`), `O!divide` / `O!root` become `\\frac` / `\\sqrt`, fenced
groups `\\left( … \\right)`, tables matrix environments; `parse_latex(slt_to_latex(t))` mostly gives `t` back.
What has no command (an unknown Unicode symbol) stands for itself, which KaTeX typesets as it is.
The tree is walked with an explicit stack, so no nesting depth can exhaust the recursion limit.
"""
from __future__ import annotations

import re
import unicodedata
from functools import cache

from mathparse import latex_symbols as sym
from mathparse.latex_commands import handler_for
from mathparse.tree import Node, Tree, chain
from mathparse.unicode_math import records

Piece = str | tuple[Node, bool]
"""Output text, or (node, with_element): the baseline starting at node, followed by its `e` sibling if asked."""

_MATH_ESCAPES = {"\\": r"\backslash", "{": r"\{", "}": r"\}", "#": r"\#", "$": r"\$", "%": r"\%", "&": r"\&",
                 "_": r"\_", "^": r"\hat{}", "~": r"\tilde{}", "'": r"\prime", "∥": r"\|", "𝑑": "d"}
"""`^` and `~` are marks without a base to the parser, `∥` a fence it may pair; `𝑑` is the differential it makes
of a `d` after `∫`."""
_TEXT_ESCAPES = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "#": r"\#", "$": r"\$", "%": r"\%",
                 "&": r"\&", "_": r"\_", "^": r"\textasciicircum{}", "~": r"\textasciitilde{}"}
_DELIMITERS = {"(": "(", ")": ")", "[": "[", "]": "]", "|": "|", "": ".", "{": r"\{", "}": r"\}", "∥": r"\|",
               "⟨": r"\langle", "⟩": r"\rangle", "⌊": r"\lfloor", "⌋": r"\rfloor", "⌈": r"\lceil", "⌉": r"\rceil"}
_OPERATOR_COMMANDS = {name: "\\" + command for command, name in reversed(sym.OPERATOR_NAMES.items())}
_ACCENT_COMMANDS = {mark: command for command, mark in reversed(sym.ACCENTS.items())}
_STYLE_COMMANDS = {style: command for command, style in reversed(sym.FONT_STYLES.items())}
_ENVIRONMENTS = {fences: name for name, fences in reversed(sym.ENVIRONMENT_FENCES.items()) if len(fences) != 1}
_BIG_OPERATORS = frozenset(sym.BIG_OPERATORS.values())
_TABLE = re.compile(r"M!(\D*)(\d+)x(\d+)")
_STYLED = re.compile(r"(?:MATHEMATICAL )?(DOUBLE-STRUCK|BOLD ITALIC|BOLD|SCRIPT|FRAKTUR|BLACK-LETTER|SANS-SERIF|MONOSPACE) "
                     r"(CAPITAL|SMALL) ([A-Z])")
_PLAIN_PACKAGES = frozenset({"", "amsmath", "amssymb"})
_CONTROL_WORD_END = re.compile(r"\\[A-Za-z]+$")
_LAST_SYMBOL = re.compile(r"(?:\\[A-Za-z]+|\\.|.)$")
_NOT = "\u0338"
"""The combining long solidus that the parser puts after a symbol it has no negated character for (`\\not`)."""


def slt_to_latex(tree: Tree) -> str:
    """LaTeX that draws the Symbol Layout Tree `tree`."""
    if tree.kind != "slt":
        raise ValueError(f"slt_to_latex draws Symbol Layout Trees, not {tree.kind!r} trees")
    parts: list[str] = []
    stack: list[Piece] = [(tree.root, True)]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
        else:
            stack.extend(reversed(_baseline(*item)))
    return "".join(parts)


def _baseline(node: Node, with_element: bool) -> list[Piece]:
    """A node with its scripts, then the rest of its baseline (`n`), then the next table element (`e`)."""
    rel = _relations(node)
    pieces = _pre_scripts(node, rel) + _scripted(node, rel)
    following = rel.get("n")
    if following is not None:
        pieces += ["{}" if _digits_meet(node, following) else " ", (following, True)]
    if with_element and "e" in rel:
        pieces += [" ", (rel["e"], True)]
    return pieces


def _relations(node: Node) -> dict[str, Node]:
    rel: dict[str, Node] = {}
    for edge, child in node.children:
        rel.setdefault(edge, child)
    return rel


def _digits_meet(node: Node, following: Node) -> bool:
    """`1` then `2` on one baseline must not be read back as the number 12."""
    return (node.label.startswith("N!") and following.label.startswith("N!")
            and not any(edge in "abouw" for edge, _ in node.children))


def _pre_scripts(node: Node, rel: dict[str, Node]) -> list[Piece]:
    above = None if node.label == "O!root" else rel.get("c")  # a root's `c` is its index
    below = rel.get("d")
    if above is None and below is None:
        return []
    return ["{}", *_script("^", above), *_script("_", below), " "]


def _scripted(node: Node, rel: dict[str, Node]) -> list[Piece]:
    over, under = (None, None) if node.label == "O!divide" else (rel.get("o"), rel.get("u"))
    limits = (over is not None or under is not None) and _has_limits(node.label)
    pieces = _core(node, rel, limits)
    scripted = limits
    if limits:
        pieces += [*_script("_", under), *_script("^", over)]
    else:
        for relation, mark in (("o", over), ("u", under)):
            if mark is not None:
                pieces, labelled = _over_under(pieces, relation, mark)
                scripted |= labelled
    if scripted and ("a" in rel or "b" in rel):  # `\\sum_u^o`, `\\underbrace{x}_k` take no second script
        pieces = ["{", *pieces, "}"]
    return pieces + _script("^", rel.get("a")) + _script("_", rel.get("b"))


def _script(marker: str, node: Node | None) -> list[Piece]:
    return [marker + "{", (node, True), "}"] if node is not None else []


def _has_limits(label: str) -> bool:
    """Whether the parser hangs this symbol's `_` and `^` under and over it (`\\sum`, `\\lim`, named operators)."""
    kind, value = _split(label)
    return value in _BIG_OPERATORS or (kind == "*" and value in sym.LIMIT_NAMES) or _is_name(kind, value)


def _over_under(base: list[Piece], relation: str, mark: Node) -> tuple[list[Piece], bool]:
    """An accent (`\\hat{x}`, `\\underbrace{x}_{k}`) when the mark is one, else `\\overset` / `\\underset`;
    and whether a brace's label went on as a script."""
    command = _ACCENT_COMMANDS.get((relation, mark.label))
    labelled_brace = mark.label in ("⏞", "⏟") and [edge for edge, _ in mark.children] == [relation]
    if command and (not mark.children or labelled_brace):
        label = _script("^" if relation == "o" else "_", mark.child(relation))
        return [command + "{", *base, "}", *label], labelled_brace
    return [r"\overset{" if relation == "o" else r"\underset{", (mark, True), "}{", *base, "}"], False


def _core(node: Node, rel: dict[str, Node], limits: bool) -> list[Piece]:
    label = node.label
    if label == "O!divide":
        return [r"\frac{", *_optional(rel.get("o")), "}{", *_optional(rel.get("u")), "}"]
    if label == "O!root":
        index: list[Piece] = ["[{", (rel["c"], True), "}]"] if "c" in rel else []
        return [r"\sqrt", *index, "{", *_optional(rel.get("w")), "}"]
    table = _TABLE.fullmatch(label)
    if table is not None:
        return _table(table[1], int(table[2]), int(table[3]), rel.get("w"))
    within: list[Piece] = ["{", (rel["w"], True), "}"] if "w" in rel else []
    return [_symbol(label, limits), *within]


def _optional(node: Node | None) -> list[Piece]:
    return [(node, True)] if node is not None else []


def _table(fences: str, rows: int, columns: int, first: Node | None) -> list[Piece]:
    """`M!()1x2` with `,` ending its elements is the fenced list `(a, b)`; any other table is a matrix."""
    cells = chain(first, "e")
    opening, closing = _DELIMITERS.get(fences[:1], "."), _DELIMITERS.get(fences[1:], ".")
    if rows == 1 and fences and all(_ends_with_separator(cell) for cell in cells[:-1]):
        return [rf"\left{opening} ", *_optional(first), rf" \right{closing}"]
    body: list[Piece] = []
    for index, cell in enumerate(cells):
        if index:
            body.append(r" \\ " if index % max(columns, 1) == 0 else " & ")
        body.append((cell, False))
    name = _ENVIRONMENTS.get(fences)
    if name is not None:
        return [rf"\begin{{{name}}} ", *body, rf" \end{{{name}}}"]
    return [rf"\left{opening} \begin{{matrix}} ", *body, rf" \end{{matrix}} \right{closing}"]


def _ends_with_separator(cell: Node) -> bool:
    last = chain(cell, "n")[-1]
    return last.label == "," and not last.children


def _symbol(label: str, limits: bool) -> str:
    """A leaf label: `V!α` → `\\alpha`, `N!12` → `12`, `T!if` → `\\text{if}`, `lim` → `\\lim`, `V!sin` → a name.

    `\\operatorname*` puts a name's scripts over and under it, as `\\lim` does.
    """
    kind, value = _split(label)
    if kind == "T":
        return r"\text{" + "".join(_TEXT_ESCAPES.get(char, char) for char in value) + "}"
    if kind == "W":  # a query variable, as the parser reads it back
        return r"\qvar{" + value + "}" if value else r"\square"
    if kind == "*" and value in _OPERATOR_COMMANDS:
        return _OPERATOR_COMMANDS[value]
    if _is_name(kind, value):
        return ("\\operatorname*{" if limits else "\\operatorname{") + value + "}"
    return _characters(value) or "{}"


def _split(label: str) -> tuple[str, str]:
    """(type letter, value) of a label; `*` and the whole label for a bare symbol such as `+` or `!`."""
    if label[1:2] == "!" and label[:1].isupper():
        return label[0], label[2:]
    return "*", label


def _is_name(kind: str, value: str) -> bool:
    """A word drawn upright, like `sin`, that has no command of its own."""
    return len(value) > 1 and value.isascii() and value.isalpha() and not (kind == "*" and value in _OPERATOR_COMMANDS)


def _characters(value: str) -> str:
    text = ""
    for char in value:
        if char == _NOT:
            text = _LAST_SYMBOL.sub(lambda symbol: r"\not " + symbol[0], text)
            continue
        if unicodedata.combining(char):
            continue  # KaTeX knows only some combining accents and refuses the rest
        latex = _character(char)
        if _CONTROL_WORD_END.search(text) and latex[:1].isalpha():
            text += " "  # `\\alpha x`, not the unknown command `\\alphax`
        text += latex
    return text


def _character(char: str) -> str:
    if char in _MATH_ESCAPES:
        return _MATH_ESCAPES[char]
    if char.isascii():
        return char
    return _commands().get(char) or _styled_letter(char) or char


@cache
def _commands() -> dict[str, str]:
    """Character → its LaTeX command: a big operator's, else the first plain symbol command for it.

    Plain means needing no package beyond amsmath and amssymb (those KaTeX knows): the third column of
    latex2mathml's unimathsymbols.txt, whose seventh names the packages. A command is kept only where the
    parser reads it back as that same character.
    """
    commands = {char: command for command, char in reversed(sym.BIG_OPERATORS.items())}
    for _, command, _, requirements in records():
        if requirements not in _PLAIN_PACKAGES:
            continue
        char = sym.symbol_char(command) if re.fullmatch(r"\\[A-Za-z]+", command) else None
        if char and not char.isascii() and handler_for(command) is None:
            commands.setdefault(char, command)
    return commands


def _styled_letter(char: str) -> str | None:
    """`ℝ` → `\\mathbb{R}`: a mathematical alphanumeric the parser makes from a font command and a letter."""
    match = _STYLED.fullmatch(unicodedata.name(char, ""))
    if match is None:
        return None
    style = "FRAKTUR" if match[1] == "BLACK-LETTER" else match[1]
    letter = match[3] if match[2] == "CAPITAL" else match[3].lower()
    return f"{_STYLE_COMMANDS[style]}{{{letter}}}" if sym.styled(letter, style) == char else None
