"""A document's own macros: how their definitions are read (`\\newcommand`, `\\def` with delimited parameters,
xparse's argument specifications) and how a use's arguments are read and put in its replacement text, the way
TeX does it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from corpora.documents.latex_tokens import Token, TokenStream

MAX_ARGUMENT_CHARS = 100_000
"""An argument longer than this is a runaway one (an unclosed brace, a delimiter that never comes)."""
NO_VALUE = "-NoValue-"
"""xparse's value of an optional argument not given, which `\\IfNoValueTF` tests."""
TRUE, FALSE = "\\BooleanTrue", "\\BooleanFalse"
"""xparse's values of an `s` or `t` argument, which `\\IfBooleanTF` tests."""


class RunawayArgument(ValueError):
    """An argument that does not end where TeX would end it (its delimiter never comes before a blank line, or
    it grows past MAX_ARGUMENT_CHARS)."""


class UseMismatch(RunawayArgument):
    """A use that does not match its `\\def` (`\\def\\a[#1]` used without `[`)."""


@dataclass(frozen=True)
class Param:
    kind: str
    """"m" a mandatory argument (one token or a braced group); "o" an optional one between `delimiters`
    (`[`…`]` unless given); "g" an optional braced group; "s" a `*` or "t" the token `delimiters[0]`, present
    or not; "u" the tokens up to `delimiters`, as a `\\def`'s `#1.` reads them."""
    default: str = ""
    """For "o" and "g": the value when absent."""
    delimiters: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "default": self.default, "delimiters": list(self.delimiters)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Param:
        return cls(data["kind"], data.get("default", ""), tuple(data.get("delimiters", ())))


@dataclass(frozen=True)
class Macro:
    name: str
    params: tuple[Param, ...] = ()
    body: str = ""
    prefix: tuple[str, ...] = ()
    """Tokens a `\\def` requires right after the macro (`\\def\\a.#1{…}`), matched and skipped."""
    primitive: str = ""
    """For `\\let\\a\\b` with `\\b` not a macro of the document: `\\b`, written as is and not expanded again
    (TeX copies the meaning, so `\\let\\oldsqrt\\sqrt` then `\\renewcommand\\sqrt` does not loop)."""
    at_letter: bool = False
    """`@` is a letter in `body` (it was defined in a package or after `\\makeatletter`)."""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "params": [param.to_json() for param in self.params], "body": self.body,
                "prefix": list(self.prefix), "primitive": self.primitive, "at_letter": self.at_letter}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Macro:
        return cls(data["name"], tuple(Param.from_json(param) for param in data.get("params", ())),
                   data.get("body", ""), tuple(data.get("prefix", ())), data.get("primitive", ""),
                   bool(data.get("at_letter", False)))


@dataclass(frozen=True)
class Environment:
    name: str
    params: tuple[Param, ...]
    begin: str
    end: str


_M = Param("m")
KERNEL = {macro.name: macro for macro in (
    Macro("@firstofone", (_M,), "#1", at_letter=True),
    Macro("@firstoftwo", (_M, _M), "#1", at_letter=True),
    Macro("@secondoftwo", (_M, _M), "#2", at_letter=True),
    Macro("@gobble", (_M,), "", at_letter=True),
    Macro("@gobbletwo", (_M, _M), "", at_letter=True),
    Macro("@empty", at_letter=True),
    Macro("@namedef", (_M,), "\\expandafter\\def\\csname #1\\endcsname", at_letter=True),
    Macro("@nameuse", (_M,), "\\csname #1\\endcsname", at_letter=True),
    Macro("@ifstar", (_M,), "\\@ifnextchar*{\\@firstoftwo{#1}}", at_letter=True),  # LaTeX's own definition
    # A formula's four styles: the display one stands for them all, rather than four copies in the formula.
    Macro("mathchoice", (_M, _M, _M, _M), "#1"),
)}
"""LaTeX kernel macros that macro files build on, as LaTeX defines them."""


def substitute(body: str, arguments: list[str]) -> str:
    """`#1`…`#9` replaced by the arguments and `##` by `#`, as TeX puts arguments in a replacement text."""
    out: list[str] = []
    index = 0
    while (found := body.find("#", index)) >= 0:
        out.append(body[index:found])
        following = body[found + 1:found + 2]
        if following.isdigit() and following != "0":
            number = int(following)
            value = arguments[number - 1] if number <= len(arguments) else ""
            if value[:1].isalpha() and ends_in_control_word(_tail(out)):
                value = " " + value  # `\lvert#1` with `z` is `\lvert z`, not `\lvertz`
            out.append(value)
            index = found + 2
        else:
            out.append("#")
            index = found + 2 if following == "#" else found + 1
    out.append(body[index:])
    return "".join(out)


def _tail(pieces: list[str], length: int = 40) -> str:
    """The last `length` characters of the text `pieces` make, without joining them all."""
    tail = ""
    for piece in reversed(pieces):
        tail = piece[-length:] + tail
        if len(tail) >= length:
            break
    return tail


def _is_paragraph_break(token: Token) -> bool:
    """A blank line before the token or as it (TeX's \\par, which ends a runaway argument)."""
    blank = token.space + (token.text if token.kind == "char" and not token.text.strip() else "")
    return "\n\n" in blank.replace(" ", "").replace("\t", "").replace("\r", "")


def ends_in_control_word(text: str) -> bool:
    """Whether `text` ends in a command named by letters, which a letter after it would lengthen."""
    letters = len(text) - len(text.rstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@"))
    return 0 < letters < len(text) and text[-letters - 1] == "\\"


def group(stream: TokenStream, first: Token) -> str:
    """The text inside a braced group whose `{` is `first`, the group consumed (comments dropped)."""
    depth, out, length = 1, list[str](), 0
    while (token := stream.next()) is not None:
        length += len(token.written)
        if length > MAX_ARGUMENT_CHARS:
            raise RunawayArgument(f"an argument runs past {MAX_ARGUMENT_CHARS:,} characters (a brace never closed)")
        if token.kind == "brace_open":
            depth += 1
        elif token.kind == "brace_close":
            depth -= 1
            if depth == 0:
                out.append(token.space)
                return "".join(out)
        out.append(token.written if token.kind != "comment" else token.space)
    return "".join(out)


def argument(stream: TokenStream) -> str | None:
    """A mandatory argument: the text of a braced group, or one token; None when a `}` or the end comes first.
    An environment's `\\end` is never one (RunawayArgument): a macro given fewer arguments than it reads (a list
    macro used before its definition) would swallow the end of its display, and with it the rest of the document."""
    token = stream.next()
    while token is not None and token.kind in ("comment", "space"):
        token = stream.next()
    if token is not None and token.kind == "macro" and token.name == "end":
        stream.unread(token)
        raise RunawayArgument("an argument would be the \\end of its environment (fewer arguments given than "
                              "it reads)")
    if token is None or token.kind == "brace_close":
        if token is not None:
            stream.unread(token)
        return None
    if token.kind == "brace_open":
        return group(stream, token)
    return token.text


def next_token(stream: TokenStream) -> Token | None:
    """The next token that is not a comment, left in the stream (what `\\@ifnextchar` looks at)."""
    while (token := stream.peek()) is not None and token.kind in ("comment", "space"):
        stream.next()
    return token


def optional(stream: TokenStream, opening: str = "[", closing: str = "]") -> str | None:
    """An optional `[…]` argument (brackets inside braces do not close it), or None when there is none."""
    token = next_token(stream)
    if token is None or token.text != opening:
        return None
    stream.next()
    depth, out = 0, list[str]()
    while (token := stream.next()) is not None:
        if len(out) > MAX_ARGUMENT_CHARS // 10:
            raise RunawayArgument(f"an optional argument is not closed by {closing!r}")
        if token.kind == "brace_open":
            depth += 1
        elif token.kind == "brace_close":
            depth -= 1
        elif depth == 0 and token.text == closing:
            out.append(token.space)
            return "".join(out)
        out.append(token.written if token.kind != "comment" else token.space)
    return "".join(out)


def flag(stream: TokenStream, text: str = "*") -> bool:
    """Whether `text` (one token: `*` by default) comes next; it is consumed."""
    token = next_token(stream)
    if token is not None and token.text == text:
        stream.next()
        return True
    return False


def star(stream: TokenStream) -> bool:
    return flag(stream, "*")


def delimited(stream: TokenStream, delimiters: tuple[str, ...]) -> str:
    """The tokens (groups whole) up to the tokens `delimiters`, which are consumed; a `\\def` argument like
    `#1.`. One pair of braces around the whole argument is removed, as TeX does."""
    out: list[Token] = []
    matchable: list[bool] = []  # tokens outside groups can be part of the delimiter
    depth, size = 0, len(delimiters)
    if not size:
        return argument(stream) or ""
    while (token := stream.next()) is not None:
        if _is_paragraph_break(token) or len(out) > MAX_ARGUMENT_CHARS // 10:
            raise RunawayArgument(f"an argument's delimiter {''.join(delimiters)!r} does not come before a "
                                  "blank line")
        if token.kind == "brace_close" and depth == 0:
            stream.unread(token)
            break
        if token.kind != "comment":
            out.append(token)
            matchable.append(depth == 0 and token.kind not in ("brace_open", "brace_close"))
        depth += {"brace_open": 1, "brace_close": -1}.get(token.kind, 0)
        if token.kind != "comment" and all(matchable[-size:]) and len(out) >= size and tuple(
                item.text for item in out[-size:]) == delimiters:
            del out[-size:]
            break
    return _unbraced("".join(item.written for item in out).strip(), out)


def _unbraced(text: str, tokens: list[Token]) -> str:
    if not text.startswith("{") or not text.endswith("}"):
        return text
    depth = 0
    for index, token in enumerate(tokens):
        depth += {"brace_open": 1, "brace_close": -1}.get(token.kind, 0)
        if depth == 0:
            return text[1:-1] if index == len(tokens) - 1 else text
    return text


def match_prefix(stream: TokenStream, prefix: tuple[str, ...]) -> None:
    """Consumes the tokens a `\\def` requires after its macro; UseMismatch when others come."""
    for text in prefix:
        token = stream.next()
        if token is None or token.text != text:
            raise UseMismatch(f"does not match its definition ({''.join(prefix)!r} must follow)")


def arguments(stream: TokenStream, params: tuple[Param, ...]) -> list[str]:
    return [_value(stream, param) for param in params]


def _value(stream: TokenStream, param: Param) -> str:
    if param.kind == "o":
        value = optional(stream, *(param.delimiters or ("[", "]")))
        return param.default if value is None else value
    if param.kind in ("s", "t"):
        return TRUE if flag(stream, param.delimiters[0] if param.delimiters else "*") else FALSE
    if param.kind == "g":
        following = next_token(stream)
        return param.default if following is None or following.kind != "brace_open" else argument(stream) or ""
    if param.kind == "u":
        return delimited(stream, param.delimiters)
    return argument(stream) or ""


def csname(stream: TokenStream, token: Token) -> Token:
    """The macro a `\\csname` (`token`) names up to its `\\endcsname`, read like one written so: `\\csname
    xlongequal\\endcsname` is `\\xlongequal`."""
    name = []
    while (part := stream.next()) is not None and not (part.kind == "macro" and part.name == "endcsname"):
        name.append(part.text if part.kind != "macro" else part.name)
    text = "".join(name).strip()
    return Token("macro", text, "\\" + text, token.space)


def macro_name(text: str | None) -> str:
    """`\\R` or `{\\R}` → `R`; empty when it is not one macro."""
    text = (text or "").strip()
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1].strip()
    return text[1:] if text.startswith("\\") and len(text) > 1 else ""


def newcommand_params(stream: TokenStream) -> tuple[Param, ...]:
    """`[n]` and `[default]` after a `\\newcommand`'s name: n arguments, the first optional with the default."""
    count_text = optional(stream)
    count = int(count_text.strip()) if count_text and count_text.strip().isdigit() else 0
    default = optional(stream) if count else None
    first = (Param("o", default),) if default is not None else ()
    return first + (Param("m"),) * (count - len(first))


def def_params(stream: TokenStream) -> tuple[tuple[str, ...], tuple[Param, ...]]:
    """A `\\def`'s parameter text up to its `{`: the tokens before `#1`, and the parameters (each delimited by
    the tokens that follow it up to the next `#`, or undelimited)."""
    items: list[str] = []  # "#" for a parameter, or a token's text
    while (token := stream.peek()) is not None and token.kind != "brace_open":
        stream.next()
        if token.kind == "char" and token.name == "#":
            digit = stream.peek()
            if digit is not None and digit.kind == "char" and digit.name.isdigit():
                stream.next()
                items.append("#")
        elif token.kind not in ("space", "comment"):
            items.append(token.text)
    first = items.index("#") if "#" in items else len(items)
    params = []
    for index in range(first, len(items)):
        if items[index] == "#":
            following = items[index + 1:]
            end = following.index("#") if "#" in following else len(following)
            params.append(Param("u", delimiters=tuple(following[:end])) if end else Param("m"))
    return tuple(items[:first]), tuple(params)


def xparse_params(spec: str) -> tuple[Param, ...] | None:
    """xparse argument kinds `m`, `o`, `O{default}`, `s`, `t<token>`, `d<>`/`D<>{default}`, `r<>`/`R<>{default}`
    (read as optional ones), `g`/`G{default}`; None for any other kind (the command stays undefined)."""
    params, index = [], 0
    while index < len(spec):
        kind, index = spec[index], index + 1
        if kind.isspace() or kind in "+!":
            continue
        if kind in "mosg":
            params.append({"m": Param("m"), "o": Param("o", NO_VALUE), "s": Param("s"), "g": Param("g", NO_VALUE)}[kind])
        elif kind == "t":
            token, index = _spec_token(spec, index)
            params.append(Param("t", delimiters=(token,)))
        elif kind in "drDR" and index + 1 < len(spec):
            delimiters, index = (spec[index], spec[index + 1]), index + 2
            default, index = _braced(spec, index) if kind in "DR" else (NO_VALUE, index)
            params.append(Param("o", default, delimiters))
        elif kind in "OG":
            default, index = _braced(spec, index)
            params.append(Param("o" if kind == "O" else "g", default))
        else:
            return None
    return tuple(params)


def _spec_token(spec: str, index: int) -> tuple[str, int]:
    """The token at `index` of a spec (`+` or `\\foo`) and the index after it."""
    if spec.startswith("\\", index):
        end = index + 1
        while end < len(spec) and spec[end].isalpha():
            end += 1
        return spec[index:max(end, index + 2)], max(end, index + 2)
    return spec[index:index + 1], index + 1


def _braced(spec: str, index: int) -> tuple[str, int]:
    """The content of the braced group at `index` of a spec and the index after it."""
    if not spec.startswith("{", index):
        return "", index
    depth = 0
    for end in range(index, len(spec)):
        depth += {"{": 1, "}": -1}.get(spec[end], 0)
        if depth == 0:
            return spec[index + 1:end], end + 1
    return spec[index + 1:], len(spec)
