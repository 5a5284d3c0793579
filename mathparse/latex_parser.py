"""LaTeX tokens → Symbol Layout Tree, by recursive descent over brace groups with a hard depth limit.

Baselines are collected as `layout.Box` lists and only turned into nodes at the end (see `layout`), so a
formula's length never costs recursion; only nesting does, and nesting deeper than MAX_DEPTH is refused
with kind "too_deep" instead of risking RecursionError.
"""
from __future__ import annotations

from collections.abc import Callable

from mathparse import latex_symbols as sym
from mathparse.errors import MAX_DEPTH, ParseError
from mathparse.latex_commands import handler_for, question_variable
from mathparse.latex_tokens import Token, tokenize
from mathparse.layout import Box, build, fenced_group
from mathparse.normalise import PRIMES, finish_baseline, join_upright_words, restyle, symbol_box
from mathparse.tree import Node

_STOP_KINDS = frozenset({"}", "&", "row"})
_STOP_COMMANDS = frozenset({r"\right", r"\end"})


def latex_boxes(source: str) -> list[Box]:
    """The baseline of a LaTeX snippet, for MathML that kept a macro LaTeXML could not expand (`\\lt`)."""
    return _Parser(source, tokenize(source)).parse()


def latex_to_slt(source: str, query: bool = False) -> Node:
    """The SLT root of one LaTeX formula (already stripped of `$` delimiters); raises ParseError. A `query` may write
    its query variables `?x` (`mathparse.latex_commands.question_variable`)."""
    parser = _Parser(source, tokenize(source), query=query)
    root = build(parser.parse())
    if root is None:
        raise ParseError("formula has no visible symbols", 0, "empty")
    return root


class _Parser:
    def __init__(self, source: str, tokens: list[Token], depth: int = 0, query: bool = False) -> None:
        self.source, self.tokens, self.i, self.depth, self.query = source, tokens, 0, depth, query
        self.plain_names = True  # off inside upright text, whose letters make words (`\mathrm{cosk}`), not names

    def parse(self) -> list[Box]:
        boxes: list[Box] = []
        while True:
            boxes += self.expression(self.depth)
            if self.i >= len(self.tokens):
                return boxes
            token = self.tokens[self.i]
            if token.kind in ("&", "row"):  # alignment marks outside any environment
                self.i += 1
            elif token.kind == "}":
                raise ParseError("'}' closes no group", token.pos, "unbalanced_braces")
            elif token.text == r"\right":
                raise ParseError(r"\right without \left", token.pos, "unbalanced_delimiters")
            else:
                raise ParseError(r"\end without \begin", token.pos, "unbalanced_environment")

    # ---- baselines -------------------------------------------------------------------------------------
    def expression(self, depth: int, stop_char: str = "") -> list[Box]:
        self.check_depth(depth)
        boxes: list[Box] = []
        switch: tuple[int, str] | None = None  # where a font switch (`\bf`, `\rm`) began, and its style
        tokens = self.tokens
        while self.i < len(tokens):
            token = tokens[self.i]
            if token.kind in _STOP_KINDS or token.text in _STOP_COMMANDS or (stop_char and token.text == stop_char):
                break
            if token.kind in ("^", "_"):
                self.scripts(boxes, depth)
            elif token.kind == "'":
                self.primes(boxes)
            elif token.text in (r"\over", r"\atop", r"\choose"):
                self.i += 1
                above = finish_baseline(_switched(boxes, switch), self.plain_names)
                boxes, switch = [_infix_fraction(token, above, self.expression(depth + 1, stop_char))], None
            elif token.text in sym.FONT_SWITCHES:
                self.i += 1
                boxes = _switched(boxes, switch)
                switch = (len(boxes), sym.FONT_SWITCHES[token.text])
            else:
                self.atom(boxes, depth)
        return finish_baseline(_switched(boxes, switch), self.plain_names)

    def scripts(self, boxes: list[Box], depth: int) -> None:
        token = self.tokens[self.i]
        self.i += 1
        argument = self.argument(depth)
        base = _base(boxes)
        if token.kind == "^" and argument and all(box.label == "′" and not box.rels for box in argument):
            base.primes += len(argument)  # f^{\prime\prime} is drawn exactly like f''
        else:
            base.attach(base.script_relation(token.kind == "^"), argument)

    def primes(self, boxes: list[Box]) -> None:
        base = _base(boxes)
        while self.i < len(self.tokens) and self.tokens[self.i].kind == "'":
            base.primes += 1
            self.i += 1

    # ---- single items ----------------------------------------------------------------------------------
    def argument(self, depth: int) -> list[Box]:
        """A macro or script argument: a brace group or one token (`\\frac12`, `x^23` = x²3)."""
        if self.i >= len(self.tokens):
            raise ParseError("missing argument at the end of the formula", len(self.source), "missing_argument")
        token = self.tokens[self.i]
        if token.kind == "{":
            return self.group(depth)
        if token.kind in _STOP_KINDS or token.kind in ("^", "_", "'") or token.text in _STOP_COMMANDS:
            raise ParseError(f"missing argument before {token.text!r}", token.pos, "missing_argument")
        boxes: list[Box] = []
        self.atom(boxes, depth + 1, single=True)
        return boxes

    def group(self, depth: int) -> list[Box]:
        opening = self.tokens[self.i]
        self.i += 1
        boxes = self.expression(depth + 1)
        if self.i >= len(self.tokens) or self.tokens[self.i].kind != "}":
            raise ParseError("'{' is never closed", opening.pos, "unbalanced_braces")
        self.i += 1
        return boxes

    def atom(self, boxes: list[Box], depth: int, single: bool = False) -> None:
        self.check_depth(depth)
        token = self.tokens[self.i]
        if token.kind == "{":
            boxes.extend(self.group(depth))
            return
        self.i += 1
        if token.kind == "cmd":
            self.command(token, boxes, depth)
        else:
            self.char(token, boxes, single)

    def char(self, token: Token, boxes: list[Box], single: bool) -> None:
        char = token.text
        if char.isdigit() and char.isascii():
            boxes.append(Box("N!" + (char if single else self.number(char))))
        elif char == "|" and self._next_is("|"):  # `||x||` is drawn as the norm `\|x\|`
            self.i += 1
            boxes.append(Box("∥", fence="∥"))
        elif char == "." and self._next_is(".") and self._is_text_at(self.i + 1, "."):
            self.i += 2
            boxes.append(Box("V!…"))
        elif char == "?" and self.query and (variable := question_variable(self, token)) is not None:
            boxes.append(variable)
        elif char == "~":  # a non-breaking space
            return
        elif char in PRIMES:  # `f′` typed as a character is drawn like `f'`
            _base(boxes).primes += PRIMES[char]
        else:
            boxes.append(symbol_box(char))

    def number(self, first: str) -> str:
        digits, tokens, seen_point = [first], self.tokens, False
        while self.i < len(tokens):
            text = tokens[self.i].text
            if tokens[self.i].kind == "char" and text.isdigit() and text.isascii():
                digits.append(text)
            elif text == "." and not seen_point and self._is_digit_at(self.i + 1):
                seen_point = True
                digits.append(text)
            else:
                break
            self.i += 1
        return "".join(digits)

    def command(self, token: Token, boxes: list[Box], depth: int) -> None:
        name = token.text
        if name in sym.IGNORED:
            return
        handler = handler_for(name)
        if handler is not None:
            handler(self, token, boxes, depth)
            return
        char = sym.symbol_char(name)
        if char is None:
            boxes.append(Box("T!" + name[1:]))  # an unknown macro: kept as text, never a failure
        else:
            boxes.append(symbol_box(char))

    # ---- helpers ---------------------------------------------------------------------------------------
    def check_depth(self, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise ParseError(f"formula nests deeper than {MAX_DEPTH} levels", self._pos(), "too_deep")

    def _pos(self) -> int:
        return self.tokens[self.i].pos if self.i < len(self.tokens) else len(self.source)

    def _next_is(self, text: str) -> bool:
        return self.i < len(self.tokens) and self.tokens[self.i].text == text and self.tokens[self.i].kind == "char"

    def _is_text_at(self, index: int, text: str) -> bool:
        return index < len(self.tokens) and self.tokens[index].kind == "char" and self.tokens[index].text == text

    def _is_digit_at(self, index: int) -> bool:
        return index < len(self.tokens) and self.tokens[index].kind == "char" and self.tokens[index].text.isdigit()

    def raw_group(self) -> str:
        """The source text of a brace group (for `\\text`, environment names), or of one token."""
        if self.i >= len(self.tokens):
            raise ParseError("missing argument at the end of the formula", len(self.source), "missing_argument")
        opening = self.tokens[self.i]
        if opening.kind != "{":
            self.i += 1
            return opening.text
        level = 0
        for index in range(self.i, len(self.tokens)):
            kind = self.tokens[index].kind
            level += (kind == "{") - (kind == "}")
            if level == 0:
                self.i = index + 1
                return self.source[opening.pos + 1:self.tokens[index].pos]
        raise ParseError("'{' is never closed", opening.pos, "unbalanced_braces")

    def nested(self, source: str, depth: int) -> list[Box]:
        """The baseline of math inside text (`\\text{if $n=1$}`); error positions count from the start of `source`."""
        return _Parser(source, tokenize(source), depth + 1, self.query).parse()

    def upright(self, read: Callable[[], list[Box]]) -> list[Box]:
        """What `read` parses, with runs of letters left for `join_upright_words` rather than read as names."""
        saved, self.plain_names = self.plain_names, False
        try:
            return join_upright_words(read())
        finally:
            self.plain_names = saved

    def optional_argument(self, depth: int) -> list[Box] | None:
        if not self._next_is("["):
            return None
        self.i += 1
        boxes = self.expression(depth + 1, stop_char="]")
        if not self._next_is("]"):
            raise ParseError("'[' of an optional argument is never closed", self._pos(), "unbalanced_braces")
        self.i += 1
        return boxes


def _switched(boxes: list[Box], switch: tuple[int, str] | None) -> list[Box]:
    """`boxes` with the font switch set from its start to the end: `{\\bf x}` like `\\mathbf{x}`, `{\\rm mul}` like
    `\\mathrm{mul}`. The switch applies to the flat baseline, so `[\\bf x]` keeps its brackets paired."""
    if switch is None:
        return boxes
    start, style = switch
    if style == "UPRIGHT":
        return boxes[:start] + join_upright_words(boxes[start:])
    restyle(boxes[start:], style)
    return boxes


def _base(boxes: list[Box]) -> Box:
    """The box a script or prime belongs to; an empty placeholder when nothing precedes it (`^2`, `{}^{14}C`)."""
    if not boxes:
        boxes.append(Box("E!"))
    return boxes[-1]


def _infix_fraction(token: Token, above: list[Box], below: list[Box]) -> Box:
    """`a \\over b` (a fraction) or `n \\choose k` (a binomial: the fraction in parentheses) of what stands each side."""
    box = Box("O!divide")
    box.attach("o", above)
    box.attach("u", below)
    return fenced_group("(", ")", [box]) if token.text == r"\choose" else box
