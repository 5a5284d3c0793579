"""A document's own macros: how their definitions are read (`\\newcommand`, `\\def`, `\\let`,
`\\DeclareMathOperator`, `\\newenvironment`, xparse's `\\NewDocumentCommand` with `m`/`o`/`O` arguments) and
how a use's arguments are read and put in its replacement text, the way TeX does it.
"""
from __future__ import annotations

from dataclasses import dataclass

from ml.data.documents.latex_tokens import Token, TokenStream

MAX_ARGUMENT_CHARS = 100_000
"""An argument longer than this is a runaway one (an unclosed brace, a delimiter that never comes)."""


class RunawayArgument(ValueError):
    """An argument that does not end where TeX would end it (its delimiter never comes before a blank line, or
    it grows past MAX_ARGUMENT_CHARS)."""


@dataclass(frozen=True)
class Param:
    kind: str
    """"m" a mandatory argument (one token or a braced group), "o" an optional `[…]` one, "u" an argument
    delimited by the text that follows it in a `\\def` (`\\def\\a#1.{…}`)."""
    default: str = ""
    """For "o": the value when absent; for "u": the delimiter."""


@dataclass(frozen=True)
class Macro:
    name: str
    params: tuple[Param, ...] = ()
    body: str = ""
    prefix: str = ""
    """Text a `\\def` requires right after the macro (`\\def\\a.#1{…}`), skipped."""
    primitive: str = ""
    """For `\\let\\a\\b` with `\\b` not a macro of the document: `\\b`, written as is and not expanded again
    (TeX copies the meaning, so `\\let\\oldsqrt\\sqrt` then `\\renewcommand\\sqrt` does not loop)."""


@dataclass(frozen=True)
class Environment:
    name: str
    params: tuple[Param, ...]
    begin: str
    end: str


def substitute(body: str, arguments: list[str]) -> str:
    """`#1`…`#9` replaced by the arguments and `##` by `#`, as TeX puts arguments in a replacement text."""
    out: list[str] = []
    index = 0
    while index < len(body):
        char = body[index]
        following = body[index + 1] if index + 1 < len(body) else ""
        if char == "#" and following.isdigit() and following != "0":
            number = int(following)
            value = arguments[number - 1] if number <= len(arguments) else ""
            if value[:1].isalpha() and _ends_in_control_word("".join(out[-40:])):
                value = " " + value  # `\lvert#1` with `z` is `\lvert z`, not `\lvertz`
            out.append(value)
            index += 2
        elif char == "#" and following == "#":
            out.append("#")
            index += 2
        else:
            out.append(char)
            index += 1
    return "".join(out)


def _is_paragraph_break(token: Token) -> bool:
    """A blank line before the token or as it (TeX's \\par, which ends a runaway argument)."""
    blank = token.space + (token.text if token.kind == "char" and not token.text.strip() else "")
    return "\n\n" in blank.replace(" ", "").replace("\t", "")


def _ends_in_control_word(text: str) -> bool:
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
        if token.kind != "comment":
            out.append(token.written)
        else:
            out.append(token.space)
    return "".join(out)


def argument(stream: TokenStream) -> str | None:
    """A mandatory argument: the text of a braced group, or one token; None when a `}` or the end comes first."""
    token = stream.next()
    while token is not None and token.kind in ("comment", "space"):
        token = stream.next()
    if token is None or token.kind == "brace_close":
        if token is not None:
            stream.unread(token)
        return None
    if token.kind == "brace_open":
        return group(stream, token)
    return token.text


def optional(stream: TokenStream, opening: str = "[", closing: str = "]") -> str | None:
    """An optional `[…]` argument (brackets inside braces do not close it), or None when there is none."""
    token = stream.peek()
    if token is None or token.kind != "char" or token.name != opening:
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
        elif depth == 0 and token.kind == "char" and token.name == closing:
            out.append(token.space)
            return "".join(out)
        out.append(token.written if token.kind != "comment" else token.space)
    return "".join(out)


def star(stream: TokenStream) -> bool:
    token = stream.peek()
    if token is not None and token.kind == "char" and token.name == "*":
        stream.next()
        return True
    return False


def delimited(stream: TokenStream, delimiter: str) -> str:
    """The tokens (groups whole) up to `delimiter`, which is consumed; a `\\def` argument like `#1.`."""
    out, depth = list[str](), 0
    while (token := stream.next()) is not None:
        if _is_paragraph_break(token) or len(out) > MAX_ARGUMENT_CHARS // 10:
            raise RunawayArgument(f"an argument's delimiter {delimiter!r} does not come before a blank line")
        if depth == 0 and token.text == delimiter:
            return "".join(out).strip()
        if token.kind == "brace_open":
            depth += 1
        elif token.kind == "brace_close":
            if depth == 0:
                stream.unread(token)
                break
            depth -= 1
        out.append(token.written)
    return "".join(out).strip()


def arguments(stream: TokenStream, params: tuple[Param, ...]) -> list[str]:
    values = []
    for param in params:
        if param.kind == "o":
            value = optional(stream)
            values.append(param.default if value is None else value)
        elif param.kind == "u":
            values.append(delimited(stream, param.default))
        else:
            value = argument(stream)
            values.append("" if value is None else value)
    return values


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


def def_params(stream: TokenStream) -> tuple[str, tuple[Param, ...]]:
    """A `\\def`'s parameter text up to its `{`: the text before `#1` and the parameters (those followed by
    other text delimited by its first token)."""
    prefix, items = list[str](), list[str]()  # items: "#" for a parameter, or a token's text
    while (token := stream.peek()) is not None and token.kind != "brace_open":
        stream.next()
        if token.kind == "char" and token.name == "#":
            digit = stream.next()
            if digit is not None and digit.kind == "char" and digit.name.isdigit():
                items.append("#")
            continue
        if not items:
            prefix.append(token.text)
        elif token.kind not in ("space", "comment"):
            items.append(token.text)
    params = []
    for index, item in enumerate(items):
        if item == "#":
            following = items[index + 1] if index + 1 < len(items) else "#"
            params.append(Param("u", following) if following != "#" else Param("m"))
    return "".join(prefix).strip(), tuple(params)


def xparse_params(spec: str) -> tuple[Param, ...] | None:
    """xparse argument kinds `m`, `o`, `O{default}`; None for any other kind (the command stays undefined)."""
    params, index = [], 0
    while index < len(spec):
        kind = spec[index]
        if kind.isspace():
            pass
        elif kind == "m":
            params.append(Param("m"))
        elif kind == "o":
            params.append(Param("o", "-NoValue-"))
        elif kind == "O" and spec.startswith("{", index + 1):
            depth, end = 0, index + 1
            for end in range(index + 1, len(spec)):
                depth += {"{": 1, "}": -1}.get(spec[end], 0)
                if depth == 0:
                    break
            params.append(Param("o", spec[index + 2:end]))
            index = end
        else:
            return None
        index += 1
    return tuple(params)
