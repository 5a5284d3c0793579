"""LaTeX → the flat token list of the lexical (tf-idf) baseline: control words, control symbols, digit runs,
single characters.

The judged ARQMath-1 LaTeX had all whitespace removed (it was a deduplication key), which glues a control word
to the letters after it: `\\sin x` is stored as `\\sinx`, `\\mathbb R` as `\\mathbbR`. Both sides are therefore
tokenised whitespace-free, and a glued control word is split at its longest prefix that is a known command
(the command tables of latex2mathml), so `\\sinx` → `\\sin x` while `\\infty` stays whole.
"""
from __future__ import annotations

import re
from functools import lru_cache

from latex2mathml import commands, symbols_parser

MARKUP_TOKENS = frozenset({"{", "}", "\\left", "\\right", "\\displaystyle"})
"""Tokens that group or size but do not change what is drawn: `x^2` and `x^{2}`, `(` and `\\left(` render alike."""

_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[0-9]+|\S", re.DOTALL)


def _command_names(value: object) -> set[str]:
    if isinstance(value, str):
        return {value} if re.fullmatch(r"\\[A-Za-z]+", value) else set()
    if isinstance(value, dict):
        return set().union(*map(_command_names, value))
    if isinstance(value, (tuple, list, set, frozenset)):
        return set().union(*map(_command_names, value))
    return set()


@lru_cache(maxsize=1)
def known_commands() -> frozenset[str]:
    """Every control word latex2mathml knows: its command constants and tables plus its Unicode symbol table."""
    names = _command_names(list(symbols_parser.SYMBOLS))
    for attribute in dir(commands):
        if attribute.isupper():
            names |= _command_names(getattr(commands, attribute))
    return frozenset(names)


def split_control_word(word: str) -> list[str]:
    """`\\sinx` → [`\\sin`, `x`]: the longest known command prefix, then single letters; unknown words stay whole."""
    known = known_commands()
    for end in range(len(word), 1, -1):
        if word[:end] in known:
            return [word[:end], *word[end:]]
    return [word]


def lexical_tokens(latex: str) -> list[str]:
    """Tokens of `latex` with whitespace ignored, e.g. `\\frac{x^2}{10}` → \\frac { x ^ 2 } { 10 }."""
    compact = "".join(latex.split())
    tokens: list[str] = []
    for token in _TOKEN.findall(compact):
        if len(token) > 2 and token[0] == "\\":
            tokens.extend(split_control_word(token))
        else:
            tokens.append(token)
    return tokens


def content_tokens(latex: str) -> list[str]:
    """`lexical_tokens` without MARKUP_TOKENS, so notation variants of one rendering share their terms.

    On the ARQMath-1 dev pools this lifts tf-idf from nDCG′ 0.729 / MAP′ 0.428 to 0.763 / 0.473.
    """
    return [token for token in lexical_tokens(latex) if token not in MARKUP_TOKENS]
