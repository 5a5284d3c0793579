"""The choices TeX's first stage makes between texts: TeX's `\\iffalse … \\else … \\fi`, `\\newif` switches and
the tests macro files make of an argument (`\\ifx\\relax#1\\relax`, `\\if\\relax\\detokenize{#1}\\relax`: is it
empty?), whose branch not taken is skipped, and the branching commands of LaTeX (`\\@ifnextchar`, `\\@ifundefined`) and
xparse (`\\IfBooleanTF`, `\\IfNoValueTF`, …), whose branch taken is read next in place of the command.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

from corpora.documents import latex_macros as defs
from corpora.documents.latex_macros import Macro
from corpora.documents.latex_tokens import Token, TokenStream

_TESTS: dict[str, tuple[str, bool, str]] = {
    f"If{test}{branches}": (value, found, branches)
    for test, value, found in (("Boolean", defs.TRUE, True), ("NoValue", defs.NO_VALUE, True),
                               ("Value", defs.NO_VALUE, False))
    for branches in ("TF", "T", "F")
}
"""xparse's tests: name → (the value tested for, whether finding it is true, the branches given)."""
NEXT_CHAR = frozenset({"@ifnextchar", "kernel@ifnextchar", "new@ifnextchar"})
BRANCHES = frozenset({*_TESTS, *NEXT_CHAR, "@ifundefined"})
"""The commands `branch` reads."""
_CHAR_MACROS = {"bgroup": "{", "egroup": "}", "sp": "^", "sb": "_"}
"""LaTeX's macros `\\let` to a character, which `\\ifx` finds equal to it."""
_GROUP_TOKENS = {"\\bgroup": "brace_open", "{": "brace_open", "\\egroup": "brace_close", "}": "brace_close"}


def branch(name: str, stream: TokenStream, defined: Callable[[str], bool]) -> str:
    """The text to read in place of a use of `name` (one of BRANCHES), whose arguments it consumes; `defined`
    says whether a macro name has a meaning (for `\\@ifundefined`)."""
    if name in NEXT_CHAR:
        wanted = (defs.argument(stream) or "").strip()
        yes, no = defs.argument(stream) or "", defs.argument(stream) or ""
        return yes if _comes_next(stream, wanted) else no
    if name == "@ifundefined":
        macro = (defs.argument(stream) or "").strip()
        yes, no = defs.argument(stream) or "", defs.argument(stream) or ""
        return no if defined(macro) else yes
    value, found, branches = _TESTS[name]
    test = (defs.argument(stream) or "").strip() == value
    yes = defs.argument(stream) or "" if "T" in branches else ""
    no = defs.argument(stream) or "" if "F" in branches else ""
    return yes if test == found else no


def _comes_next(stream: TokenStream, wanted: str) -> bool:
    token = defs.next_token(stream)
    if token is None:
        return False
    if wanted in _GROUP_TOKENS:
        return token.kind == _GROUP_TOKENS[wanted]
    return token.text == wanted


class Conditionals:
    """TeX's `\\if…`s as far as they can be decided before typesetting: `\\iftrue`, `\\iffalse` and `\\newif`
    switches take their branch; any other `\\if…` is written with both its branches, for the reader to see."""

    def __init__(self, stream: TokenStream, macros: Mapping[str, Macro] | None = None) -> None:
        self.stream = stream
        self.macros = macros if macros is not None else {}
        self.open: list[str] = []  # "skip-else" (\iftrue), "drop-fi" (\iffalse's \else part), "keep" (others)
        self.switches: dict[str, tuple[str, bool]] = {}  # `\newif\ifdraft`: draftfalse → ("ifdraft", False)
        self.ifs: dict[str, bool] = {}

    def handles(self, name: str) -> bool:
        return name in self.switches or name in ("newif", "else", "fi") or (name.startswith("if") and name != "iff")

    def token(self, token: Token) -> str:
        """What to write for `token` (one `handles` names)."""
        if token.name == "newif":
            self.newif()
            return ""
        if token.name in self.switches:
            name, value = self.switches[token.name]
            self.ifs[name] = value
            return ""
        decided = self.ifs.get(token.name) if token.name in self.ifs else self.decide(token.name)
        if decided is not None:
            token = Token("macro", "iftrue" if decided else "iffalse", token.text, token.space)
        if token.name in ("else", "fi"):
            return self.end(token)
        if token.name == "iffalse":
            if self.skip_branch():  # stopped at an \else: its part is read, up to a \fi to drop
                self.open.append("drop-fi")
        elif token.name == "iftrue":
            self.open.append("skip-else")
        else:
            self.open.append("keep")
            return token.written
        return ""

    def decide(self, name: str) -> bool | None:
        """An `\\ifx` of two tokens, or an `\\if\\relax\\detokenize{…}\\relax`, when the macros known say how it
        goes; None otherwise, the tokens read put back."""
        if name not in ("if", "ifx"):
            return None
        read = [token for token in (self.stream.next(), self.stream.next()) if token is not None]
        if name == "ifx" and len(read) == 2:
            same = _same(read[0], read[1], self.macros)
            if same is not None:
                return same
        elif [token.text for token in read] == ["\\relax", "\\detokenize"]:
            read += _group_tokens(self.stream)
            read += [token for token in (self.stream.next(),) if token is not None]
            if read[-1].text == "\\relax" and read[2].kind == "brace_open":
                return all(token.kind in ("brace_open", "brace_close", "space", "comment") for token in read[2:-1])
        self.stream.insert(read)
        return None

    def newif(self) -> None:
        switch = self.stream.next()
        if switch is not None and switch.kind == "macro" and switch.name.startswith("if"):
            self.ifs[switch.name] = False
            self.switches[switch.name[2:] + "true"] = (switch.name, True)
            self.switches[switch.name[2:] + "false"] = (switch.name, False)

    def end(self, token: Token) -> str:
        """An `\\else` or `\\fi`."""
        if self.open and self.open[-1] != "keep":
            if token.name == "else" and self.open[-1] == "skip-else":
                self.skip_branch()
            self.open.pop()
            return ""
        if token.name == "fi" and self.open:
            self.open.pop()
        return token.written

    def skip_branch(self) -> bool:
        """Skips to the `\\fi` (or `\\else`) closing the current conditional branch, nested ones included;
        True when it stopped at an `\\else`."""
        depth = 0
        while (token := self.stream.next()) is not None:
            if token.kind != "macro":
                continue
            if token.name.startswith("if") and token.name != "iff":
                depth += 1
            elif token.name == "fi":
                if depth == 0:
                    return False
                depth -= 1
            elif token.name == "else" and depth == 0:
                return True
        return False


def _same(first: Token, second: Token, macros: Mapping[str, Macro]) -> bool | None:
    """Whether `\\ifx` finds two tokens the same: the same character or macro, or two macros of one meaning;
    None for two macros not both the document's (a LaTeX command's meaning is not known here)."""
    if first.text == second.text:
        return True
    if first.kind != "macro" and second.kind != "macro":
        return False
    if first.kind == "macro" and second.kind == "macro":
        if first.name in macros and second.name in macros:
            one, other = macros[first.name], macros[second.name]
            return (one.params, one.body, one.prefix, one.primitive) == (other.params, other.body, other.prefix,
                                                                         other.primitive)
        return None
    macro, char = (first, second) if first.kind == "macro" else (second, first)
    if macro.name in macros:
        return macros[macro.name].primitive == char.text  # `\\let\\a=x` makes `\\a` the character
    return _CHAR_MACROS.get(macro.name) == char.text


def _group_tokens(stream: TokenStream) -> list[Token]:
    """The tokens of the braced group that comes next, braces included (none if no group comes)."""
    out: list[Token] = []
    depth = 0
    while (token := stream.next()) is not None:
        out.append(token)
        depth += {"brace_open": 1, "brace_close": -1}.get(token.kind, 0)
        if depth <= 0 or len(out) > defs.MAX_ARGUMENT_CHARS // 10:
            break
    return out
