"""LaTeX source → tokens with their character offsets (the first stage of the LaTeX → SLT pipeline).

Whitespace is dropped (TeX ignores it in math), `%` starts a comment, the HTML entities that survive in
ARQMath LaTeX (`&amp;`, `&lt;`, `&gt;`) become their characters, and an unknown control word such as
`\\topx` (whitespace-stripped `\\top x`) is split into the longest known command plus single letters.
"""
from __future__ import annotations

import html
import re
import unicodedata
from typing import NamedTuple

from mathparse.latex_symbols import KNOWN_COMMANDS, MAX_COMMAND_LENGTH

SPECIAL = {"{": "{", "}": "}", "^": "^", "_": "_", "&": "&", "'": "'"}
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});")
ROW_COMMANDS = frozenset({"\\cr", "\\newline"})


class Token(NamedTuple):
    kind: str  # "cmd", "char", "{", "}", "^", "_", "&", "'", or "row" for `\\`
    text: str
    pos: int


def tokenize(source: str) -> list[Token]:
    tokens: list[Token] = []
    pos, end = 0, len(source)
    while pos < end:
        char = source[pos]
        if char.isspace() or (not char.isascii() and unicodedata.category(char) == "Cf"):
            pos += 1  # whitespace, and invisible format characters such as U+200E LEFT-TO-RIGHT MARK
        elif char == "%":
            # A comment runs to the end of its line; ARQMath / LaTeXML text lost its newlines, and there
            # a `%` only marked a line break, so without a newline just the `%` itself is dropped.
            newline = source.find("\n", pos)
            pos = pos + 1 if newline < 0 else newline
        elif char == "\\":
            pos = _control_sequence(source, pos, tokens)
        elif char == "&":
            pos = _ampersand(source, pos, tokens)
        else:
            tokens.append(Token(SPECIAL.get(char, "char"), char, pos))
            pos += 1
    return tokens


def _ampersand(source: str, pos: int, tokens: list[Token]) -> int:
    match = _ENTITY.match(source, pos)
    text = html.unescape(match.group()) if match else "&"
    if len(text) != 1:  # not an entity after all: a plain alignment mark
        tokens.append(Token("&", "&", pos))
        return pos + 1
    if not text.isspace():
        tokens.append(Token(SPECIAL.get(text, "char") if text in "&'" else "char", text, pos))
    return pos + (match.end() - match.start() if match else 1)


def _control_sequence(source: str, pos: int, tokens: list[Token]) -> int:
    start, pos = pos, pos + 1
    while pos < len(source) and source[pos].isascii() and source[pos].isalpha():
        pos += 1
    if pos == start + 1:  # a control symbol: `\\`, `\,`, `\{`, or at the very end a control space `\ ` whose
        if pos >= len(source):  # space was stripped with the formula's trailing whitespace
            return pos
        text = source[start:pos + 1]
        tokens.append(Token("row", text, start) if text == "\\\\" else Token("cmd", text, start))
        return pos + 1
    if pos < len(source) and source[pos] == "*" and source[start:pos + 1] in KNOWN_COMMANDS:
        pos += 1
    word = source[start:pos]
    if word not in KNOWN_COMMANDS:
        prefix = _known_prefix(word)
        if prefix or len(word) <= 3:  # `\dx`: a control space `\ ` before `dx`, once whitespace was stripped
            prefix = prefix or "\\ "
            if prefix != "\\ ":
                tokens.append(Token("row" if prefix in ROW_COMMANDS else "cmd", prefix, start))
            tokens.extend(Token("char", source[i], i) for i in range(start + len(prefix.strip()), pos))
            return pos
    tokens.append(Token("row" if word in ROW_COMMANDS else "cmd", word, start))
    return pos


def _known_prefix(word: str) -> str | None:
    """Longest known command (two letters at least) that `word` starts with."""
    for length in range(min(len(word) - 1, MAX_COMMAND_LENGTH), 2, -1):
        if word[:length] in KNOWN_COMMANDS:
            return word[:length]
    return None
