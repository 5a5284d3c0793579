"""A LaTeX document's text after TeX's first stage: comments dropped, `\\iffalse … \\fi` skipped, included files
read in place, the document's own macros and environments expanded, and verbatim material set aside.

The result is plain LaTeX for the structure reader, with two markers of its own: `\\mathsearchfile{path}` where
the text of another file starts (and where the including file resumes), and `\\mathsearchverbatim{n}` for the
n-th inline verbatim piece (`\\verb|…|`) and `\\mathsearchcode{n}` for a verbatim environment (`verbatim`,
`lstlisting`, …), whose content is never read as LaTeX.

Expansion is bounded by the tokens it reads, however deep it nests: a use of a macro that reads more than
MAX_USE_TOKENS is left as written, reported once naming the macro, and the macro is not expanded again; once the
document's uses have read its budget (MAX_DOCUMENT_TOKENS, and TOKENS_PER_SOURCE_CHAR more for each character of
its files, as a small file of nested `\\def`s can ask for millions, and never more than its upload has left),
no macro is expanded after it. A document that reads or produces more characters than its budget allows (its
files each time they are included, its verbatim material and its text) is refused (`budgets.OverBudget`).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from corpora.documents import latex_macros as defs
from corpora.documents.budgets import CharacterBudget, UploadTokens
from corpora.documents.latex_conditionals import BRANCHES, Conditionals, branch
from corpora.documents.latex_definitions import Definitions
from corpora.documents.latex_macros import KERNEL, Macro, Param, RunawayArgument, UseMismatch
from corpora.documents.latex_tokens import Frame, Token, TokenLimit, TokenStream, at_letter_catcode

MAX_USE_TOKENS = 20_000
"""The largest use in TeX Live's science documentation reads 531 tokens."""
MAX_DOCUMENT_TOKENS = 20_000
TOKENS_PER_SOURCE_CHAR = 10
"""Those documents' uses read at most 1.8 tokens per character of their files."""
FILE_MARKER = "mathsearchfile"
VERBATIM_MARKER = "mathsearchverbatim"
CODE_MARKER = "mathsearchcode"
VERBATIM_ENVIRONMENTS = frozenset({"verbatim", "verbatim*", "Verbatim", "Verbatim*", "BVerbatim", "LVerbatim",
                                   "lstlisting", "minted", "comment", "alltt*", "LTXexample", "tcblisting",
                                   "sourcecode", "code", "filecontents", "filecontents*", "example", "verbatimtab",
                                   "macrocode", "macrocode*", "boxedverbatim", "spverbatim", "latexcode",
                                   "pythoncode", "shellcode", "dispExample", "dispExample*", "demo", "texcode",
                                   "tkzexample", "tkzltxexample"})
"""Environments whose content is not LaTeX to read (more are added by a document's own
`\\DefineVerbatimEnvironment`, `\\lstnewenvironment` and `\\newtcblisting`)."""
DROPPED_ENVIRONMENTS = frozenset({"comment", "filecontents", "filecontents*"})
VERBATIM_MACROS = frozenset({"verb", "lstinline", "Verb", "mintinline", "spverb"})
INCLUDES = frozenset({"input", "include", "subfile", "import", "subimport", "inputfrom", "subinputfrom",
                      "includefrom", "subincludefrom", "usepackage"})
THEOREM_DECLARATIONS = frozenset({"newtheorem", "spnewtheorem", "declaretheorem", "newmdtheoremenv", "newtcbtheorem"})
NOTHING = frozenset({"xspace", "relax", "protect", "ignorespaces", "unskip", "nobreak"})
"""Commands that leave nothing for a reader of the text (spacing and expansion control)."""
_PREFIXES = frozenset({"long", "global", "protected", "outer"})

Resolver = Callable[[str, str, str], tuple[str, str]]
"""(command, argument, including file) → (the included file's path, its text); ValueError says why not.
For `\\usepackage` it raises LookupError when the package is not part of the upload (a system package)."""


class ExpansionLimit(Exception):
    """A macro use to leave as written: `why` completes "macro \\name …"."""

    def __init__(self, macro: str, why: str, kind: str) -> None:
        super().__init__(f"macro \\{macro} {why}; left as written")
        self.macro = macro
        self.kind = kind
        """"runaway" (the use is left, the macro still expanded elsewhere), "use" or "document" (a bound)."""


@dataclass
class Expansion:
    text: str
    verbatim: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """Each one line naming the file: a missing include, an include cycle, a macro left as written
    ("FILE:LINE: macro \\name …; left as written", once per macro and kind of problem)."""
    included: set[str] = field(default_factory=set)
    macros: dict[str, Macro] = field(default_factory=dict)
    """The macros the document defined, in their final meaning, for reading queries in its notation (their `@`
    internals too; no predefined ones it left alone)."""


@dataclass
class _Use:
    """A macro use written in a file, being expanded: where to go back to if it fails."""

    macro: str
    call: str
    """The macro as written; its arguments are read again as text when the use is abandoned."""
    depth: int
    out_length: int
    frame: Frame
    pos: int
    """Where `frame` (the file's text, usually) goes on after the macro."""
    start: int
    """The stream's token count when the use began."""
    file_frame: Frame | None
    file_pos: int


def expand(text: str, file: str, resolve: Resolver, predefined: Mapping[str, Macro] | None = None,
           tokens: UploadTokens | None = None) -> Expansion:
    """The text of `file` (a main document or one read alone) after TeX's first stage; see the module.
    `predefined` are package macros in force from the start, which the document's definitions replace; `tokens`
    are what its upload has left for macro uses, and what this document's uses read is taken from them."""
    expander = _Expander(resolve, predefined or {}, tokens or UploadTokens())
    try:
        expander.read_text(file, text)
        expander.run()
    finally:
        expander.tokens.spend(expander.spent)
    return Expansion("".join(expander.out), expander.verbatim, expander.problems, expander.included,
                     expander.definitions.own_macros())


class _Expander:
    def __init__(self, resolve: Resolver, predefined: Mapping[str, Macro], tokens: UploadTokens) -> None:
        self.resolve = resolve
        self.tokens = tokens
        self.stream = TokenStream()
        self.out: list[str] = []
        self.chars = CharacterBudget()
        self.verbatim: list[str] = []
        self.problems: list[str] = []
        self.reported: set[tuple[str, str]] = set()
        self.included: set[str] = set()
        self.definitions = Definitions(self.stream, {**KERNEL, **predefined}, predefined, VERBATIM_ENVIRONMENTS)
        self.macros = self.definitions.macros
        self.conditionals = Conditionals(self.stream, self.macros)
        self.broken: set[str] = set()
        self.use: _Use | None = None
        self.source_chars = 0
        self.spent = 0  # tokens read by the document's macro uses so far
        self.stopped = False  # the document's budget is spent: no macro is expanded any more
        self.short_verbs: set[str] = set()  # `\MakeShortVerb{\|}`: |…| is \verb|…|
        self.documents_open = 0  # `\begin{document}`s not yet ended: the text after the last `\end` is not read
        self.done = False

    def write(self, text: str) -> None:
        if not text:
            return
        if text[0].isalpha() and self.out and defs.ends_in_control_word(self.out[-1][-40:]):
            text = " " + text  # `\def\<{\langle}` then `\<x`: TeX's token `\langle`, then x; not `\langlex`
        self.out.append(text)
        self.chars.spend("text produced", len(text))

    def run(self) -> None:
        stream = self.stream
        while stream.frames and not self.done:
            token = None
            try:
                token = stream.next()
                if token is None:  # the end of a file: back to the one that included it
                    stream.pop_file()
                    if stream.frames:
                        self.write(f"\\{FILE_MARKER}{{{stream.file}}}")
                    continue
                if self.use is not None and stream.macro_depth < self.use.depth:
                    self.end_use()
                self.token(token)
            except TokenLimit:
                self.abandon(self.limit())
            except ExpansionLimit as error:
                self.abandon(error)
            except RunawayArgument as error:
                self.runaway(error, token)

    def token(self, token: Token) -> None:
        if token.kind == "comment":
            self.write(token.space)
        elif token.kind == "char" and token.name in self.short_verbs:
            self.write(token.space)
            self.inline_verbatim_to(token.name)
        elif token.kind == "char" and token.name == "`":  # `\{ is a character code, not the macro \{
            self.write(token.written)
            following = self.stream.next()
            if following is not None:
                self.write(following.written)
        elif token.kind in ("brace_open", "brace_close"):
            self.definitions.scope(token.kind == "brace_open")
            self.write(token.written)
        elif token.kind != "macro":
            self.write(token.written)
        else:
            self.macro(token)

    def macro(self, token: Token) -> None:
        name, stream = token.name, self.stream
        macro = self.macros.get(name)
        if macro is not None:  # first: most macros read are the document's own
            if self.stopped or name in self.broken:
                self.write(token.written)
            else:
                self.call(token, macro)
        elif self.definitions.handles(name):
            self.definitions.define(token)
        elif name in ("makeatletter", "makeatother"):
            stream.push_back_to_source()
            stream.at_letter = name == "makeatletter"
            self.write(token.space)
        elif name == "catcode" and (at_letter := at_letter_catcode(stream)) is not None:
            stream.at_letter = at_letter
        elif name in _PREFIXES:
            self.definitions.global_next = self.definitions.global_next or name == "global"
        elif self.conditionals.handles(name):
            self.write(self.conditionals.token(token))
        elif name in INCLUDES:
            self.include(token)
        elif name in VERBATIM_MACROS:
            self.inline_verbatim(token)
        elif name in ("MakeShortVerb", "DeleteShortVerb"):
            self.short_verb(name)
        elif name in ("begin", "end"):
            self.environment(token)
        elif name == "csname":
            self.token(defs.csname(stream, token))
        elif name == "expandafter":
            self.expandafter()
        elif name in BRANCHES and not self.stopped:
            self.branch(token)
        elif name in NOTHING:
            self.write(token.space)
        elif name in THEOREM_DECLARATIONS:
            self.theorem_declaration(token)
        else:
            self.write(token.written)

    def theorem_declaration(self, token: Token) -> None:
        """`\\newtheorem{example}{Example}`: the document's theorem environment is text to read, even where a
        package's verbatim environment has the same name (`example`). Written on for the structure reader."""
        star = "*" if defs.star(self.stream) else ""
        name = defs.argument(self.stream)
        if name is not None:
            self.definitions.verbatim_environments.discard(name.strip())
        self.write(token.written + star + ("" if name is None else f"{{{name}}}"))

    # macro uses and their bounds

    def call(self, token: Token, macro: Macro) -> None:
        if macro.primitive:
            self.write(token.space + ("" if macro.primitive[1:] in NOTHING else macro.primitive))
            return
        self.begin_use(token)
        try:
            defs.match_prefix(self.stream, macro.prefix)
            values = defs.arguments(self.stream, macro.params)
        except UseMismatch as error:
            raise ExpansionLimit(macro.name, str(error), "runaway") from None
        except RunawayArgument as error:
            raise ExpansionLimit(macro.name, f"has a runaway argument: {error}", "runaway") from None
        self.write(token.space)
        self.stream.push(Frame(defs.substitute(macro.body, values), macro=macro.name, at_letter=macro.at_letter))

    def branch(self, token: Token) -> None:
        """`\\@ifnextchar` and the like: the branch taken is read next, as a macro's replacement text."""
        self.begin_use(token)
        at_letter = self.stream.reading_at_letter
        text = branch(token.name, self.stream, lambda name: name in self.macros)
        self.write(token.space)
        self.stream.push(Frame(text, macro=token.name, at_letter=at_letter))

    def begin_use(self, token: Token) -> None:
        if self.use is not None:
            return
        stream = self.stream
        stream.push_back_to_source()
        file_frame = stream.file_frame
        self.use = _Use(token.name, token.written, stream.macro_depth + 1, len(self.out),
                        stream.frames[-1], stream.frames[-1].pos, stream.count, file_frame,
                        file_frame.pos if file_frame is not None else 0)
        stream.limit = stream.count + min(MAX_USE_TOKENS, max(self.budget - self.spent, 0))

    @property
    def budget(self) -> int:
        return min(MAX_DOCUMENT_TOKENS + TOKENS_PER_SOURCE_CHAR * self.source_chars, self.tokens.left)

    @property
    def ceiling(self) -> int:
        """The tokens a document may read in all: its files, its uses' budget, and as much again for the text of
        uses left as written, read twice. Reading past it is a loop of this reader's, not of the document's."""
        return 3 * self.budget

    def end_use(self) -> None:
        if self.use is not None:
            self.spent += self.stream.count - self.use.start
        self.use = None
        self.stream.limit = self.ceiling

    def limit(self) -> ExpansionLimit:
        """The bound a use has just passed; ValueError past the ceiling."""
        use = self.use
        if use is None:
            raise ValueError(f"reading the document took more than {self.ceiling:,} tokens")
        if self.spent + self.stream.count - use.start >= self.budget:
            self.stopped = True
            whose = "its upload's macros had left" if self.budget == self.tokens.left else "the document's macros may read"
            return ExpansionLimit(use.macro, f"goes past the {self.budget:,} tokens {whose}; no macro is expanded "
                                  "after it", "document")
        return ExpansionLimit(use.macro, f"reads more than {MAX_USE_TOKENS:,} tokens (it expands forever)", "use")

    def abandon(self, error: ExpansionLimit) -> None:
        """Back to before the macro use that failed: its frames dropped, its output undone, the use written as
        it stands and reported; past a bound, the macro is no longer expanded."""
        use, stream = self.use, self.stream
        if use is None:  # pragma: no cover - a limit is only raised during a use
            raise error
        stream.pop_to(use.frame)
        if stream.frames and stream.frames[-1] is use.frame:
            use.frame.pos = use.pos
        del self.out[use.out_length:]
        self.end_use()
        if error.kind != "runaway":
            self.broken.add(error.macro)
        self.report(error, use)
        self.write(use.call)

    def report(self, error: ExpansionLimit, use: _Use) -> None:
        if (error.macro, error.kind) in self.reported:
            return
        self.reported.add((error.macro, error.kind))
        frame = use.file_frame
        line = frame.text.count("\n", 0, use.file_pos) + 1 if frame is not None else 0
        self.problems.append(f"{frame.file if frame is not None else ''}:{line}: {error}")

    def runaway(self, error: RunawayArgument, token: Token | None) -> None:
        """A runaway argument of a command that is not a macro use (a definition, `\\@ifnextchar`)."""
        if self.use is not None:
            self.abandon(ExpansionLimit(self.use.macro, f"has a runaway argument: {error}", "runaway"))
        else:
            command = f"\\{token.name}: " if token is not None else ""
            self.problems.append(f"{self.stream.file}:{self.stream.line}: {command}{error}")

    # TeX's expansion commands

    def expandafter(self) -> None:
        """`\\expandafter A B`: B expanded once (a `\\csname`, a macro), then A read before its expansion."""
        stream = self.stream
        first, second = stream.next(), stream.next()
        if first is None or second is None:
            stream.insert([token for token in (first, second) if token is not None])
            return
        if second.kind == "macro" and second.name == "csname":
            stream.insert([first, defs.csname(stream, second)])
        elif second.kind == "macro" and second.name == "expandafter":
            self.expandafter()
            stream.insert([first])
        elif second.kind == "macro" and second.name in self.macros and not (self.stopped or second.name in self.broken):
            self.call(second, self.macros[second.name])
            stream.insert([first])
        else:
            stream.insert([first, second])

    # environments, verbatim and includes

    def environment(self, token: Token) -> None:
        stream = self.stream
        opening = stream.peek()
        name = defs.argument(stream) if opening is not None and opening.kind == "brace_open" else None
        if name is None:
            self.write(token.written)
            return
        name = name.strip()
        if token.name == "begin" and name in self.definitions.verbatim_environments:
            content = stream.raw_until(f"\\end{{{name}}}") or ""
            if name not in DROPPED_ENVIRONMENTS:
                self.set_aside(content.strip("\n"))
                self.write(f"{token.space}\\{CODE_MARKER}{{{len(self.verbatim) - 1}}}")
            return
        environment = self.definitions.environments.get(name)
        if environment is not None and name not in self.broken and not self.stopped:
            replacement = Macro(name, environment.params if token.name == "begin" else (),
                                environment.begin if token.name == "begin" else environment.end)
            self.call(Token("macro", name, token.text + "{" + name + "}", token.space), replacement)
            return
        self.write(f"{token.written}{{{name}}}")
        if name == "document" and len(stream.frames) == 1:  # an example of a whole document holds one of its own
            self.documents_open += 1 if token.name == "begin" else -1
            self.done = self.documents_open <= 0

    def short_verb(self, name: str) -> None:
        defs.star(self.stream)
        character = (defs.argument(self.stream) or "").strip().lstrip("\\")
        if len(character) == 1:
            (self.short_verbs.add if name == "MakeShortVerb" else self.short_verbs.discard)(character)

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
        self.set_aside(content or "")
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
        self.write(f"\\{FILE_MARKER}{{{path}}}")
        self.read_text(path, text)

    def set_aside(self, verbatim: str) -> None:
        self.verbatim.append(verbatim)
        self.chars.spend("verbatim set aside", len(verbatim))

    def read_text(self, path: str, text: str) -> None:
        self.chars.spend(path, len(text), read=True)
        self.source_chars += len(text)
        self.stream.push(Frame(text, file=path))
        if self.use is None:
            self.stream.limit = self.ceiling


__all__ = ["Expansion", "ExpansionLimit", "Macro", "Param", "expand"]
