"""TeX's input as a stack of token sources: a file's text at the bottom, and above it the replacement text of
each macro being expanded, which TeX reads before going on with the file.

A macro's arguments may continue past the end of its replacement text (`\\def\\a{\\frac}` then `\\a{x}{y}`),
so reading moves down the stack when a replacement text is used up, but never past the end of a file.

The tokens are pylatexenc's kinds, cut by regular expressions of our own: pylatexenc's `get_token` took 10 µs a
token, and every character is a token. `@` is a letter in macro names where TeX makes it one: in a `.sty` or
`.cls` file, after `\\makeatletter`, and in the replacement text of a macro defined there.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

PACKAGE_SUFFIXES = (".sty", ".cls")
"""Files LaTeX reads with `@` a letter (`\\usepackage`, `\\documentclass`)."""

_SPACE = re.compile(r"\s*")
_PARAGRAPH = re.compile(r"\n[ \t\r\f\v]*\n")
_MACRO = re.compile(r"\\(?:([^\W\d_]+)|(.))", re.S)
_MACRO_AT = re.compile(r"\\(?:((?:[^\W\d_]|@)+)|(.))", re.S)
_COMMENT = re.compile(r"%[^\n]*(?:\n[ \t\r]*+(?!\n))?")  # TeX drops the newline and the next line's indent
_SPECIALS = re.compile(r"---|--|``|''|!`|\?`|~|&")  # pylatexenc's default specials
_PLAIN = frozenset(chr(code) for code in range(33, 127)) - set("\\%{}$-`'!?~&")
"""Characters that are a token of their own whatever follows, the common case read first."""
_MATH_MACROS = {"[": "mathmode_display", "]": "mathmode_display", "(": "mathmode_inline", ")": "mathmode_inline"}


class Token(NamedTuple):  # a tuple: made once per character read, a dataclass's cost shows
    kind: str
    """pylatexenc's kinds: "macro", "char", "brace_open", "brace_close", "comment", "mathmode_inline",
    "mathmode_display", "specials"; and "space" for the whitespace that ends a text."""
    name: str
    """A macro's name without the backslash; a char's character ("\\n\\n" for a blank line)."""
    text: str
    """The token as written."""
    space: str = ""
    """The whitespace before it."""

    @property
    def written(self) -> str:
        return self.space + self.text


@dataclass(slots=True)
class Frame:
    text: str = ""
    file: str = ""
    """The file this is the text of; empty for a macro's replacement text."""
    macro: str = ""
    """The macro this is the replacement text of."""
    pos: int = 0
    at_letter: bool = False
    """For a replacement text: `@` was a letter where it was written (files follow the stream's state)."""
    tokens: tuple[Token, ...] = ()
    """Tokens to read as they are instead of a text (what `\\expandafter` and `\\csname` put back)."""
    outer_at_letter: bool = False
    """For a file: whether `@` was a letter in the file that included it, restored at its end."""


class TokenLimit(Exception):
    """More tokens read than the stream's `limit` allows."""


class TokenStream:
    def __init__(self) -> None:
        self.frames: list[Frame] = []
        self._files: list[int] = []  # the index of each file's frame
        self._back: list[Token] = []
        self.at_letter = False
        """`@` is a letter in the files being read (`\\makeatletter`)."""
        self.count = 0
        """Tokens read so far, each once: the measure of expansion work."""
        self.limit: int | None = None

    def push(self, frame: Frame) -> None:
        self.push_back_to_source()  # a token read ahead belongs to the text below the new frame
        while self.frames and self.frames[-1].macro and self.frames[-1].pos >= len(self.frames[-1].text):
            self.frames.pop()  # a replacement text used up: a macro calling another last nests no deeper
        if frame.file:
            frame.outer_at_letter = self.at_letter
            self.at_letter = self.at_letter or frame.file.endswith(PACKAGE_SUFFIXES)
            self._files.append(len(self.frames))
        self.frames.append(frame)

    def pop_file(self) -> None:
        """Leaves the innermost file (used up), restoring the `@` of the file that included it."""
        self.push_back_to_source()
        frame = self.frames.pop()
        self._files.pop()
        if frame.file.endswith(PACKAGE_SUFFIXES):
            self.at_letter = frame.outer_at_letter

    def pop_to(self, frame: Frame) -> None:
        """Drops the replacement texts above `frame` (or above the innermost file, if `frame` is gone)."""
        self.push_back_to_source()
        while self.frames and self.frames[-1] is not frame and not self.frames[-1].file:
            self.frames.pop()

    def insert(self, tokens: list[Token]) -> None:
        """Tokens to read next, before the rest of the current source."""
        if tokens:
            self.push(Frame(tokens=tuple(tokens)))

    @property
    def macro_depth(self) -> int:
        """How many replacement texts sit above the innermost file."""
        return len(self.frames) - 1 - self._files[-1] if self._files else len(self.frames)

    @property
    def file_frame(self) -> Frame | None:
        return self.frames[self._files[-1]] if self._files else None

    @property
    def file(self) -> str:
        return self.frames[self._files[-1]].file if self._files else ""

    @property
    def line(self) -> int:
        """The 1-based line the innermost file is read at."""
        self.push_back_to_source()
        frame = self.file_frame
        return frame.text.count("\n", 0, frame.pos) + 1 if frame is not None else 0

    @property
    def reading_at_letter(self) -> bool:
        """Whether `@` is a letter in the source being read (what a definition read now records)."""
        for frame in reversed(self.frames):
            if frame.file:
                return self.at_letter
            if not frame.tokens:
                return frame.at_letter
        return self.at_letter

    def next(self) -> Token | None:
        """The next token, or None at the end of the innermost file; TokenLimit past `limit`."""
        if self._back:
            return self._back.pop()
        while self.frames:
            frame = self.frames[-1]
            token = _token(frame, self.at_letter if frame.file else frame.at_letter)
            if token is not None:
                self.count += 1
                if self.limit is not None and self.count > self.limit:
                    raise TokenLimit(f"more than {self.limit:,} tokens")
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
        frame = self._raw_frame()
        index = frame.text.find(end, frame.pos)
        if index < 0:
            frame.pos = len(frame.text)
            return None
        content, frame.pos = frame.text[frame.pos:index], index + len(end)
        return content

    def raw_char(self) -> str:
        """The next character of the innermost source as written (a `\\verb` delimiter), consumed."""
        frame = self._raw_frame()
        if frame.pos >= len(frame.text):
            return ""
        frame.pos += 1
        return frame.text[frame.pos - 1]

    def _raw_frame(self) -> Frame:
        """The source whose characters come next: replacement texts used up are left, and tokens put back are
        turned into their text (a `\\verb` in a replacement text reads on in the file)."""
        self.push_back_to_source()
        while not self.frames[-1].file and _used_up(self.frames[-1]):
            self.frames.pop()
        frame = self.frames[-1]
        if frame.tokens:
            text = "".join(token.written for token in frame.tokens[frame.pos:])
            frame = self.frames[-1] = Frame(text, macro="tokens", at_letter=self.reading_at_letter)
        return frame

    def push_back_to_source(self) -> None:
        """Tokens read ahead go back to the source they came from (the innermost one: reading never crosses
        into the source below while one is held)."""
        while self._back:
            token = self._back.pop()
            frame = self.frames[-1]
            frame.pos -= 1 if frame.tokens else len(token.written)


def _used_up(frame: Frame) -> bool:
    return frame.pos >= (len(frame.tokens) if frame.tokens else len(frame.text))


def at_letter_catcode(stream: TokenStream) -> bool | None:
    """After a `\\catcode`: whether plain TeX's `\\catcode`\\@=11` (or `=12`) makes `@` a letter or not, its tokens
    consumed; None for any other `\\catcode`, its tokens left to read."""
    read: list[Token] = []

    def take(*texts: str) -> bool:
        following = stream.peek()
        if following is None or following.text not in texts:
            return False
        read.append(following)
        stream.next()
        return True

    if take("`") and take("\\@", "@"):
        take("=")
        while len(read) < 5 and take(*"0123456789"):
            pass
        code = "".join(part.text for part in read[2:] if part.text.isdigit())
        if code in ("11", "12", "13"):
            stream.push_back_to_source()  # a token looked at was cut with the old `@`
            return code == "11"
    stream.insert(read)
    return None


def _token(frame: Frame, at_letter: bool) -> Token | None:
    if frame.tokens:
        if frame.pos >= len(frame.tokens):
            return None
        frame.pos += 1
        return frame.tokens[frame.pos - 1]
    text, start = frame.text, frame.pos
    if start >= len(text):
        return None
    if text[start] in _PLAIN:
        frame.pos = start + 1
        return Token("char", text[start], text[start])
    end = _SPACE.match(text, start).end()  # type: ignore[union-attr]
    space = text[start:end]
    if "\n" in space and (blank := _PARAGRAPH.search(space)) is not None:  # TeX's \par
        frame.pos = start + blank.end()
        return Token("char", "\n\n", blank.group(), space[:blank.start()])
    if end >= len(text):
        frame.pos = end
        return Token("space", "", "", space)
    kind, name, written = _cut(text, end, at_letter)
    frame.pos = end + len(written)
    return Token(kind, name, written, space)


def _cut(text: str, pos: int, at_letter: bool) -> tuple[str, str, str]:
    """The kind, name and text of the token starting at `pos` (not whitespace)."""
    char = text[pos]
    if char == "\\":
        match = (_MACRO_AT if at_letter else _MACRO).match(text, pos)
        if match is None:  # a backslash ending the text
            return ("char", "\\", "\\")
        name = match.group(1) or match.group(2)
        if match.group(2) in _MATH_MACROS:
            return (_MATH_MACROS[name], match.group(), match.group())
        return ("macro", name, match.group())
    if char == "%":
        comment = _COMMENT.match(text, pos).group()  # type: ignore[union-attr]
        return ("comment", comment[1:].rstrip("\n\t\r "), comment)
    if char == "{" or char == "}":
        return ("brace_open" if char == "{" else "brace_close", char, char)
    if char == "$":
        return ("mathmode_display", "$$", "$$") if text.startswith("$$", pos) else ("mathmode_inline", "$", "$")
    if char in "-`'!?~&" and (special := _SPECIALS.match(text, pos)) is not None:
        return ("specials", special.group(), special.group())
    return ("char", char, char)
