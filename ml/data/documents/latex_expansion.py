"""A LaTeX document's text after TeX's first stage: comments dropped, `\\iffalse … \\fi` skipped, included files
read in place, the document's own macros and environments expanded, and verbatim material set aside.

The result is plain LaTeX for the structure reader, with two markers of its own: `\\mathsearchfile{path}` where
the text of another file starts (and where the including file resumes), and `\\mathsearchverbatim{n}` for the
n-th inline verbatim piece (`\\verb|…|`) and `\\mathsearchcode{n}` for a verbatim environment (`verbatim`,
`lstlisting`, …), whose content is never read as LaTeX.

Expansion is bounded: a use of a macro that nests more than MAX_DEPTH deep, takes more than MAX_EXPANSIONS
steps, or writes or reads more than MAX_USE_CHARS is left as written, reported once naming the macro, and the macro
is not expanded again; the whole text is refused (ValueError) past MAX_TOTAL_CHARS.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ml.data.documents import latex_macros as defs
from ml.data.documents.latex_macros import Environment, Macro, Param, RunawayArgument
from ml.data.documents.latex_tokens import Frame, Token, TokenStream

MAX_DEPTH = 64
MAX_EXPANSIONS = 20_000
MAX_USE_CHARS = 200_000
MAX_TOTAL_CHARS = 20_000_000
FILE_MARKER = "mathsearchfile"
VERBATIM_MARKER = "mathsearchverbatim"
CODE_MARKER = "mathsearchcode"
VERBATIM_ENVIRONMENTS = frozenset({"verbatim", "verbatim*", "Verbatim", "Verbatim*", "BVerbatim", "LVerbatim",
                                   "lstlisting", "minted", "comment", "alltt*", "LTXexample", "tcblisting",
                                   "sourcecode", "code", "filecontents", "filecontents*", "example", "verbatimtab",
                                   "macrocode", "macrocode*", "boxedverbatim", "spverbatim", "latexcode",
                                   "pythoncode", "shellcode", "dispExample", "dispExample*", "demo", "texcode"})
"""Environments whose content is not LaTeX to read (more are added by a document's own
`\\DefineVerbatimEnvironment`, `\\lstnewenvironment` and `\\newtcblisting`)."""
DROPPED_ENVIRONMENTS = frozenset({"comment", "filecontents", "filecontents*"})
VERBATIM_MACROS = frozenset({"verb", "lstinline", "Verb", "mintinline", "spverb"})
INCLUDES = frozenset({"input", "include", "subfile", "import", "subimport", "inputfrom", "subinputfrom",
                      "includefrom", "subincludefrom", "usepackage"})
_NEWCOMMANDS = frozenset({"newcommand", "renewcommand", "providecommand", "DeclareRobustCommand"})
_DEFS = frozenset({"def", "gdef", "edef", "xdef"})
_NEWENVIRONMENTS = frozenset({"newenvironment", "renewenvironment", "provideenvironment"})
_XPARSE = frozenset({"NewDocumentCommand", "RenewDocumentCommand", "ProvideDocumentCommand",
                     "DeclareDocumentCommand", "NewExpandableDocumentCommand"})
_PREFIXES = frozenset({"long", "global", "protected", "outer"})

Resolver = Callable[[str, str, str], tuple[str, str]]
"""(command, argument, including file) → (the included file's path, its text); ValueError says why not.
For `\\usepackage` it raises LookupError when the package is not part of the upload (a system package)."""


class ExpansionLimit(Exception):
    def __init__(self, macro: str, why: str) -> None:
        super().__init__(f"macro \\{macro} {why}; left as written")
        self.macro = macro


@dataclass
class Expansion:
    text: str
    verbatim: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """Each one line naming the file: a missing include, an include cycle, a macro that expands forever."""
    included: set[str] = field(default_factory=set)


@dataclass
class _Use:
    """A macro use written in a file, being expanded: where to go back to if it never ends."""

    macro: str
    call: str
    """The macro as written; its arguments are read again as text when the use is abandoned."""
    depth: int
    out_length: int
    chars: int
    frame: Frame
    pos: int
    """Where `frame` (the file's text) goes on after the macro."""
    steps: int = 0
    read: int = 0


def expand(text: str, file: str, resolve: Resolver) -> Expansion:
    """The text of `file` (a main document or one read alone) after TeX's first stage; see the module."""
    expander = _Expander(resolve)
    expander.stream.push(Frame(text, file=file))
    expander.run()
    return Expansion("".join(expander.out), expander.verbatim, expander.problems, expander.included)


class _Expander:
    def __init__(self, resolve: Resolver) -> None:
        self.resolve = resolve
        self.stream = TokenStream()
        self.out: list[str] = []
        self.chars = 0
        self.verbatim: list[str] = []
        self.problems: list[str] = []
        self.included: set[str] = set()
        self.macros: dict[str, Macro] = {}
        self.environments: dict[str, Environment] = {}
        self.verbatim_environments = set(VERBATIM_ENVIRONMENTS)
        self.broken: set[str] = set()
        self.conditions: list[str] = []  # "skip-else" (\iftrue), "drop-fi" (\iffalse's \else part), "keep" (others)
        self.switches: dict[str, tuple[str, bool]] = {}  # `\newif\ifdraft`: draftfalse → ("ifdraft", False)
        self.ifs: dict[str, bool] = {}
        self.use: _Use | None = None
        self.scopes: list[dict[str, Macro | None]] = []  # per open group: the meanings it replaced
        self.global_next = False
        self.expl = False  # inside \ExplSyntaxOn: names hold `_` and `:`, which this tokenizer does not join
        self.short_verbs: set[str] = set()  # `\MakeShortVerb{\|}`: |…| is \verb|…|
        self.done = False

    def write(self, text: str) -> None:
        self.out.append(text)
        self.chars += len(text)
        if self.chars > MAX_TOTAL_CHARS:
            raise ValueError(f"the text grew past {MAX_TOTAL_CHARS:,} characters while expanding macros")
        if self.use is not None and self.chars - self.use.chars > MAX_USE_CHARS:
            raise ExpansionLimit(self.use.macro, f"writes more than {MAX_USE_CHARS:,} characters")

    def run(self) -> None:
        stream = self.stream
        while stream.frames and not self.done:
            token = stream.next()
            if token is None:  # the end of a file: back to the one that included it
                stream.frames.pop()
                if stream.frames:
                    self.write(f"\\{FILE_MARKER}{{{stream.file}}}")
                continue
            if self.use is not None and stream.macro_depth < self.use.depth:
                self.use = None
            try:
                self.token(token)
            except ExpansionLimit as error:
                self.abandon(error)
            except RunawayArgument as error:  # in a definition, read where no macro is being expanded
                self.problems.append(f"{stream.file}: after \\{token.name}: {error}")

    def abandon(self, error: ExpansionLimit) -> None:
        """Back to before the macro use that never ends: its frames dropped, its output undone, the use
        written as it stands, the macro reported once and no longer expanded."""
        use = self.use
        if use is None:  # pragma: no cover - a limit is only raised during a use
            raise error
        self.stream.push_back_to_source()
        while self.stream.frames and self.stream.frames[-1] is not use.frame:
            self.stream.frames.pop()
        use.frame.pos = use.pos
        del self.out[use.out_length:]
        self.chars = use.chars
        self.use = None
        self.broken.add(error.macro)
        self.problems.append(f"{self.stream.file}: {error}")
        self.write(use.call)

    def token(self, token: Token) -> None:
        if token.kind == "comment":
            self.write(token.space)
        elif token.kind == "char" and token.name in self.short_verbs:
            self.write(token.space)
            self.inline_verbatim_to(token.name)
        elif token.kind == "macro" and token.name in ("MakeShortVerb", "DeleteShortVerb"):
            defs.star(self.stream)
            character = (defs.argument(self.stream) or "").strip().lstrip("\\")
            if len(character) == 1:
                (self.short_verbs.add if token.name == "MakeShortVerb" else self.short_verbs.discard)(character)
        elif token.kind == "char" and token.name == "`":  # `\{ is a character code, not the macro \{
            self.write(token.written)
            following = self.stream.next()
            if following is not None:
                self.write(following.written)
        elif token.kind in ("brace_open", "brace_close"):
            self.scope(token.kind == "brace_open")
            self.write(token.written)
        elif token.kind != "macro":
            self.write(token.written)
        elif token.name in _NEWCOMMANDS or token.name in _DEFS or token.name in _XPARSE or token.name in (
                "let", "DeclareMathOperator", *_NEWENVIRONMENTS, "DefineVerbatimEnvironment",
                "lstnewenvironment", "newtcblisting", "DeclareTCBListing", "NewTCBListing"):
            self.define(token)
        elif token.name in ("ExplSyntaxOn", "ExplSyntaxOff"):
            self.expl = token.name == "ExplSyntaxOn"
        elif token.name in _PREFIXES:
            self.global_next = self.global_next or token.name == "global"
        elif token.name in self.switches or token.name == "newif" or (
                token.name.startswith("if") and token.name != "iff") or token.name in ("else", "fi"):
            self.condition(token)
        elif token.name in INCLUDES:
            self.include(token)
        elif token.name in VERBATIM_MACROS:
            self.inline_verbatim(token)
        elif token.name in ("begin", "end"):
            self.environment(token)
        elif token.name == "csname":
            self.token(self.csname(token))
        elif token.name in self.macros and token.name not in self.broken:
            self.call(token, self.macros[token.name])
        else:
            self.write(token.written)

    # macros

    def call(self, token: Token, macro: Macro) -> None:
        stream = self.stream
        if macro.primitive:
            self.write(token.space + macro.primitive)
            return
        if self.use is None:
            stream.push_back_to_source()
            self.use = _Use(macro.name, token.written, stream.macro_depth + 1, len(self.out), self.chars,
                            stream.frames[-1], stream.frames[-1].pos)
        self.use.steps += 1
        if self.use.steps > MAX_EXPANSIONS:
            raise ExpansionLimit(self.use.macro, f"takes more than {MAX_EXPANSIONS:,} expansion steps")
        if stream.macro_depth >= MAX_DEPTH:
            raise ExpansionLimit(self.use.macro, f"nests more than {MAX_DEPTH} expansions deep")
        try:
            if macro.prefix:
                defs.delimited(stream, macro.prefix)
            values = defs.arguments(stream, macro.params)
        except RunawayArgument as error:
            raise ExpansionLimit(self.use.macro, f"has a runaway argument: {error}") from None
        self.write(token.space)
        replacement = defs.substitute(macro.body, values)
        self.use.read += len(replacement)
        if self.use.read > MAX_USE_CHARS:  # arguments doubling at each step grow before the nesting limit is hit
            raise ExpansionLimit(self.use.macro, f"reads more than {MAX_USE_CHARS:,} characters of replacement text")
        stream.push(Frame(replacement, macro=macro.name))

    def scope(self, opening: bool) -> None:
        """TeX's groups: a definition inside braces ends with them, unless global."""
        if opening:
            self.scopes.append({})
        elif self.scopes:
            for name, meaning in self.scopes.pop().items():
                if meaning is None:
                    self.macros.pop(name, None)
                else:
                    self.macros[name] = meaning

    def assign(self, name: str, macro: Macro, is_global: bool = False) -> None:
        if self.expl:  # expl3 code is not LaTeX this reader can expand: its macros are left as written
            return
        if self.scopes and not (is_global or self.global_next) and name not in self.scopes[-1]:
            self.scopes[-1][name] = self.macros.get(name)
        self.macros[name] = macro

    def define(self, token: Token) -> None:
        try:
            self.definition(token)
        finally:
            self.global_next = False

    def definition(self, token: Token) -> None:
        stream, name = self.stream, token.name
        starred = defs.star(stream)
        if name in _NEWCOMMANDS:
            macro = defs.macro_name(defs.argument(stream))
            params = defs.newcommand_params(stream)
            body = defs.argument(stream) or ""
            if macro and not (name == "providecommand" and macro in self.macros):
                self.assign(macro, Macro(macro, params, body))
        elif name in _DEFS:
            target = stream.next()
            prefix, params = defs.def_params(stream)
            body = defs.argument(stream) or ""
            if target is not None and target.kind == "macro":
                self.assign(target.name, Macro(target.name, params, body, prefix), name in ("gdef", "xdef"))
        elif name == "let":
            self.let()
        elif name == "DeclareMathOperator":
            macro = defs.macro_name(defs.argument(stream))
            text = defs.argument(stream) or ""
            if macro:
                self.assign(macro, Macro(macro, body=f"\\operatorname{'*' if starred else ''}{{{text}}}"))
        elif name in _XPARSE:
            macro = defs.macro_name(defs.argument(stream))
            kinds = defs.xparse_params(defs.argument(stream) or "")
            body = defs.argument(stream) or ""
            if macro and kinds is not None:
                self.assign(macro, Macro(macro, kinds, body))
        elif name in _NEWENVIRONMENTS:
            environment = (defs.argument(stream) or "").strip()
            params = defs.newcommand_params(stream)
            begin, end = defs.argument(stream) or "", defs.argument(stream) or ""
            if environment:
                self.environments[environment] = Environment(environment, params, begin, end)
        else:  # a verbatim environment of the document's own: its name, then options or code to skip
            environment = (defs.argument(stream) or "").strip()
            self.verbatim_environments.add(environment)
            self.environments.pop(environment, None)
            if name == "lstnewenvironment":
                defs.newcommand_params(stream)
            for _ in range({"DefineVerbatimEnvironment": 2, "lstnewenvironment": 2}.get(name, 1)):
                defs.argument(stream)

    def let(self) -> None:
        stream = self.stream
        target = stream.next()
        source = stream.next()
        while source is not None and (source.kind == "space" or (source.kind == "char" and source.name == "=")):
            source = stream.next()
        if target is None or target.kind != "macro" or source is None:
            return
        if source.kind == "macro" and source.name in self.macros:
            meaning = self.macros[source.name]
            self.assign(target.name, Macro(target.name, meaning.params, meaning.body, meaning.prefix, meaning.primitive))
        elif source.kind == "macro":
            self.assign(target.name, Macro(target.name, primitive=source.text))
        else:
            self.assign(target.name, Macro(target.name, body=source.text))

    # conditionals, environments, verbatim and includes

    def condition(self, token: Token) -> None:
        if token.name == "newif":
            switch = self.stream.next()
            if switch is not None and switch.kind == "macro" and switch.name.startswith("if"):
                self.ifs[switch.name] = False
                self.switches[switch.name[2:] + "true"] = (switch.name, True)
                self.switches[switch.name[2:] + "false"] = (switch.name, False)
            return
        if token.name in self.switches:
            name, value = self.switches[token.name]
            self.ifs[name] = value
            return
        if token.name in self.ifs:
            token = Token("macro", "iftrue" if self.ifs[token.name] else "iffalse", token.text, token.space)
        if token.name == "iffalse":
            if self.skip_branch():  # stopped at an \else: its part is read, up to a \fi to drop
                self.conditions.append("drop-fi")
        elif token.name == "iftrue":
            self.conditions.append("skip-else")
        elif token.name.startswith("if"):
            self.conditions.append("keep")
            self.write(token.written)
        elif self.conditions and self.conditions[-1] != "keep":
            if token.name == "else" and self.conditions[-1] == "skip-else":
                self.skip_branch()
            self.conditions.pop()
        else:
            if token.name == "fi" and self.conditions:
                self.conditions.pop()
            self.write(token.written)

    def skip_branch(self) -> bool:
        """Skips to the `\\fi` (or `\\else`) closing the current conditional branch, nested ones included;
        True when it stopped at an `\\else`."""
        depth = 0
        while (token := self.stream.next()) is not None:
            if token.kind != "macro":
                continue
            if token.name.startswith("if") and token.name not in ("iff",):
                depth += 1
            elif token.name == "fi":
                if depth == 0:
                    return False
                depth -= 1
            elif token.name == "else" and depth == 0:
                return True
        return False

    def environment(self, token: Token) -> None:
        stream = self.stream
        opening = stream.peek()
        name = defs.argument(stream) if opening is not None and opening.kind == "brace_open" else None
        if name is None:
            self.write(token.written)
            return
        name = name.strip()
        if token.name == "begin" and name in self.verbatim_environments:
            content = stream.raw_until(f"\\end{{{name}}}") or ""
            if name not in DROPPED_ENVIRONMENTS:
                self.verbatim.append(content.strip("\n"))
                self.write(f"{token.space}\\{CODE_MARKER}{{{len(self.verbatim) - 1}}}")
            return
        environment = self.environments.get(name)
        if environment is not None and name not in self.broken:
            replacement = Macro(name, environment.params if token.name == "begin" else (),
                                environment.begin if token.name == "begin" else environment.end)
            self.call(Token("macro", name, token.text + "{" + name + "}", token.space), replacement)
            return
        self.write(f"{token.written}{{{name}}}")
        if token.name == "end" and name == "document" and len(stream.frames) == 1:
            self.done = True

    def csname(self, token: Token) -> Token:
        """`\\csname xlongequal\\endcsname` is the macro `\\xlongequal`, read like one written so."""
        name = []
        while (part := self.stream.next()) is not None and not (part.kind == "macro" and part.name == "endcsname"):
            name.append(part.text if part.kind != "macro" else part.name)
        text = "".join(name).strip()
        return Token("macro", text, "\\" + text, token.space)

    def inline_verbatim(self, token: Token) -> None:
        stream = self.stream
        if token.name == "mintinline":
            defs.argument(stream)  # the language
        elif token.name in ("lstinline", "Verb"):
            defs.optional(stream)
        delimiter = stream.raw_char()
        if delimiter == "*" and token.name == "verb":
            delimiter = stream.raw_char()
        self.write(token.space)
        self.inline_verbatim_to("}" if delimiter == "{" else delimiter)

    def inline_verbatim_to(self, closing: str) -> None:
        content = self.stream.raw_until(closing) if closing else ""
        self.verbatim.append(content or "")
        self.write(f"\\{VERBATIM_MARKER}{{{len(self.verbatim) - 1}}}")

    def include(self, token: Token) -> None:
        stream, command = self.stream, token.name
        self.write(token.space)
        if command == "usepackage":
            defs.optional(stream)
        following = stream.peek()
        if command == "input" and following is not None and following.kind != "brace_open":
            names = [self.plain_file_name()]  # TeX's own `\input file`
        else:
            folder = defs.argument(stream) or "" if command in ("import", "subimport") or command.endswith("from") else ""
            name = (defs.argument(stream) or "").strip()
            names = [part.strip() for part in name.split(",") if part.strip()] if command == "usepackage" else [
                folder.strip() + name]
        for one in names:
            self.read_file(command, one)

    def plain_file_name(self) -> str:
        stream, out = self.stream, list[str]()
        while (token := stream.peek()) is not None and token.kind == "char" and not (out and token.space):
            if token.name.isspace():
                break
            out.append(stream.next().text)  # type: ignore[union-attr]
        return "".join(out)

    def read_file(self, command: str, name: str) -> None:
        stream = self.stream
        including = stream.file
        try:
            path, text = self.resolve(command, name, including)
        except LookupError:
            return
        except ValueError as error:
            self.problems.append(f"{including}: \\{command}{{{name}}}: {error}")
            return
        chain = [frame.file for frame in stream.frames if frame.file]
        if path in chain:
            cycle = " → ".join([*chain[chain.index(path):], path])
            self.problems.append(f"{including}: \\{command}{{{name}}}: include cycle {cycle}")
            return
        self.included.add(path)
        stream.push_back_to_source()
        self.write(f"\\{FILE_MARKER}{{{path}}}")
        stream.push(Frame(text, file=path))


__all__ = ["Expansion", "ExpansionLimit", "Param", "expand"]
