"""TeX's input as a stack of token sources, read with pylatexenc's tokenizer: a file's text at the bottom, and
above it the replacement text of each macro being expanded, which TeX reads before going on with the file.

A macro's arguments may continue past the end of its replacement text (`\\def\\a{\\frac}` then `\\a{x}{y}`),
so reading moves down the stack when a replacement text is used up, but never past the end of a file.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import cache

from pylatexenc.latexwalker import (
    LatexWalker,
    LatexWalkerEndOfStream,
    LatexWalkerError,
    get_default_latex_context_db,
)
from pylatexenc.macrospec import LatexContextDb

# Its tolerant mode logs each construct it skips at INFO: a worker logging at INFO printed one line per package
# environment of every document. What the reader cannot read it reports itself, as the file's problems.
logging.getLogger("pylatexenc.latexwalker").setLevel(logging.WARNING)


@dataclass(frozen=True)
class Token:
    kind: str
    """pylatexenc's kinds: "macro", "char", "brace_open", "brace_close", "comment", "mathmode_inline",
    "mathmode_display", "specials"; and "space" for the whitespace that ends a text."""
    name: str
    """A macro's name without the backslash; a char's character."""
    text: str
    """The token as written."""
    space: str = ""
    """The whitespace before it."""

    @property
    def written(self) -> str:
        return self.space + self.text


@dataclass
class Frame:
    text: str
    file: str = ""
    """The file this is the text of; empty for a macro's replacement text."""
    macro: str = ""
    """The macro this is the replacement text of."""
    pos: int = 0
    walker: LatexWalker = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.walker = LatexWalker(self.text, latex_context=_tokenizer_context(), tolerant_parsing=True)


@cache
def _tokenizer_context() -> LatexContextDb:
    """Built once: a walker builds pylatexenc's whole table of macros unless given one, and every macro's
    replacement text is read by a walker of its own."""
    return get_default_latex_context_db()


class TokenStream:
    def __init__(self) -> None:
        self.frames: list[Frame] = []
        self._back: list[Token] = []

    def push(self, frame: Frame) -> None:
        if self._back:  # a token read ahead belongs to the text below the new frame
            below = self.frames[-1]
            below.pos -= sum(len(token.written) for token in self._back)
            self._back.clear()
        self.frames.append(frame)

    @property
    def macro_depth(self) -> int:
        """How many replacement texts sit above the innermost file."""
        depth = 0
        for frame in reversed(self.frames):
            if frame.file:
                break
            depth += 1
        return depth

    @property
    def file(self) -> str:
        return next((frame.file for frame in reversed(self.frames) if frame.file), "")

    def next(self) -> Token | None:
        """The next token, or None at the end of the innermost file."""
        if self._back:
            return self._back.pop()
        while self.frames:
            frame = self.frames[-1]
            token = _token(frame)
            if token is not None:
                return token
            if frame.file:
                return None
            self.frames.pop()
        return None

    def peek(self) -> Token | None:
        token = self.next()
        if token is not None:
            self._back.append(token)
        return token

    def unread(self, token: Token) -> None:
        self._back.append(token)

    def raw_until(self, end: str) -> str | None:
        """The text of the innermost source up to `end` (which is consumed), for verbatim content; None if it
        never comes (the rest of the source is then consumed)."""
        if self._back:
            self.push_back_to_source()
        frame = self.frames[-1]
        index = frame.text.find(end, frame.pos)
        if index < 0:
            frame.pos = len(frame.text)
            return None
        content, frame.pos = frame.text[frame.pos:index], index + len(end)
        return content

    def raw_char(self) -> str:
        """The next character of the innermost source as written (a `\\verb` delimiter), consumed."""
        self.push_back_to_source()
        frame = self.frames[-1]
        if frame.pos >= len(frame.text):
            return ""
        frame.pos += 1
        return frame.text[frame.pos - 1]

    def push_back_to_source(self) -> None:
        if self._back:
            self.frames[-1].pos -= sum(len(token.written) for token in self._back)
            self._back.clear()


def _token(frame: Frame) -> Token | None:
    if frame.pos >= len(frame.text):
        return None
    try:
        token = frame.walker.get_token(frame.pos, environments=False)
    except LatexWalkerEndOfStream:
        space, frame.pos = frame.text[frame.pos:], len(frame.text)
        return Token("space", "", "", space)
    except LatexWalkerError:  # tolerant parsing still refuses a few things (a lone backslash at the end)
        frame.pos += 1
        return Token("char", frame.text[frame.pos - 1], frame.text[frame.pos - 1])
    space = frame.text[frame.pos:token.pos]
    frame.pos = token.pos + token.len
    text = frame.text[token.pos:frame.pos]
    if token.tok == "macro":
        name = token.arg
        if token.post_space:  # written back as the next token's space, so a rewritten macro keeps its gap
            frame.pos -= len(token.post_space)
            text = text[:len(text) - len(token.post_space)]
        if name.isalpha() and frame.text.startswith("@", frame.pos):
            while frame.pos < len(frame.text) and (frame.text[frame.pos].isalpha() or frame.text[frame.pos] == "@"):
                frame.pos += 1  # a name with `@` (`\my@cmd` after \makeatletter) is one macro
            text = frame.text[token.pos:frame.pos]
            name = text[1:]
        return Token("macro", name, text, space)
    if token.tok == "specials":
        return Token("specials", token.arg.specials_chars, text, space)
    if token.tok in ("char", "brace_open", "brace_close"):
        return Token(token.tok, token.arg, text, space)
    return Token(token.tok, str(token.arg), text, space)
