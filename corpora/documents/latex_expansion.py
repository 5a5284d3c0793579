"""A LaTeX document's text after TeX's first stage: comments dropped, `\\iffalse … \\fi` skipped, included files
read in place, the document's own macros and environments expanded, and verbatim material set aside.

The reading loop is here; its parts are latex_includes (files read in place), latex_uses (a macro use expanded,
bounded, or left as written), latex_environments, latex_verbatim (material set aside, never read as LaTeX) and
latex_output (what is written). A document that reads or produces more characters than its budget allows (its
files each time they are included, its verbatim material and its text) is refused (`budgets.OverBudget`).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from corpora.documents import latex_macros as defs
from corpora.documents.budgets import UploadTokens
from corpora.documents.latex_conditionals import BRANCHES, Conditionals
from corpora.documents.latex_definitions import Definitions
from corpora.documents.latex_environments import Environments
from corpora.documents.latex_includes import INCLUDES, Includes, Resolver
from corpora.documents.latex_macros import KERNEL, Macro, Param, RunawayArgument
from corpora.documents.latex_output import ExpandedText
from corpora.documents.latex_tokens import Token, TokenLimit, TokenStream, at_letter_catcode
from corpora.documents.latex_uses import ExpansionLimit, MacroUses
from corpora.documents.latex_verbatim import VERBATIM_ENVIRONMENTS, VERBATIM_MACROS, VerbatimReader
from corpora.documents.problems import ReadProblem

THEOREM_DECLARATIONS = frozenset({"newtheorem", "spnewtheorem", "declaretheorem", "newmdtheoremenv", "newtcbtheorem"})
NOTHING = frozenset({"xspace", "relax", "protect", "ignorespaces", "unskip", "nobreak"})
"""Commands that leave nothing for a reader of the text (spacing and expansion control)."""
_PREFIXES = frozenset({"long", "global", "protected", "outer"})


@dataclass
class Expansion:
    text: str
    verbatim: list[str] = field(default_factory=list)
    problems: list[ReadProblem] = field(default_factory=list)
    """A missing include, an include cycle, a macro left as written ("macro \\name …; left as written", once per
    macro and kind of problem), …: see `problems.KINDS`."""
    included: set[str] = field(default_factory=set)
    macros: dict[str, Macro] = field(default_factory=dict)
    """The macros the document defined, in their final meaning, for reading queries in its notation (their `@`
    internals too; no predefined ones it left alone)."""


def expand(text: str, file: str, resolve: Resolver, predefined: Mapping[str, Macro] | None = None,
           tokens: UploadTokens | None = None) -> Expansion:
    """The text of `file` (a main document or one read alone) after TeX's first stage; see the module.
    `predefined` are package macros in force from the start, which the document's definitions replace; `tokens`
    are what its upload has left for macro uses, and what this document's uses read is taken from them."""
    upload = tokens or UploadTokens()
    expander = _Expander(resolve, predefined or {}, upload)
    try:
        expander.includes.read_text(file, text)
        expander.run()
    finally:
        upload.spend(expander.uses.tokens.spent)
    return Expansion(expander.output.text, expander.output.verbatim, expander.problems, expander.includes.included,
                     expander.definitions.own_macros())


class _Expander:
    """Reads the document token by token, handing each command to the part that knows it."""

    def __init__(self, resolve: Resolver, predefined: Mapping[str, Macro], upload: UploadTokens) -> None:
        self.stream = stream = TokenStream()
        self.output = output = ExpandedText()
        self.problems: list[ReadProblem] = []
        self.definitions = Definitions(stream, {**KERNEL, **predefined}, predefined, VERBATIM_ENVIRONMENTS)
        self.macros = self.definitions.macros
        self.conditionals = Conditionals(stream, self.macros)
        self.uses = MacroUses(stream, output, self.problems, upload)
        self.includes = Includes(stream, output, self.uses, self.problems, resolve)
        self.verbatim = VerbatimReader(stream, output)
        self.environments = Environments(stream, output, self.definitions, self.uses, self.verbatim)

    def write(self, text: str) -> None:
        self.output.write(text)

    def run(self) -> None:
        stream = self.stream
        while stream.frames and not self.environments.done:
            token = None
            try:
                token = stream.next()
                if token is None:  # the end of a file: back to the one that included it
                    self.includes.end_of_file()
                    continue
                self.uses.end_if_left()
                self.token(token)
            except TokenLimit:
                self.uses.abandon(self.uses.limit())
            except ExpansionLimit as error:
                self.uses.abandon(error)
            except RunawayArgument as error:
                self.uses.runaway(error, token)

    def token(self, token: Token) -> None:
        if token.kind == "comment":
            self.write(token.space)
        elif token.kind == "char" and token.name in self.verbatim.short_verbs:
            self.verbatim.inline_to(token.space, token.name)
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
            if self.uses.expands(name):
                self.call(token, macro)
            else:
                self.write(token.written)
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
            self.includes.include(token)
        elif name in VERBATIM_MACROS:
            self.verbatim.inline(token)
        elif name in ("MakeShortVerb", "DeleteShortVerb"):
            self.verbatim.short_verb(name)
        elif name in ("begin", "end"):
            self.environments.read(token)
        elif name == "csname":
            self.token(defs.csname(stream, token))
        elif name == "expandafter":
            self.expandafter()
        elif name in BRANCHES and not self.uses.tokens.stopped:
            self.uses.branch(token, lambda name: name in self.macros)
        elif name in NOTHING:
            self.write(token.space)
        elif name in THEOREM_DECLARATIONS:
            self.theorem_declaration(token)
        else:
            self.write(token.written)

    def call(self, token: Token, macro: Macro) -> None:
        if macro.primitive:
            self.write(token.space + ("" if macro.primitive[1:] in NOTHING else macro.primitive))
        else:
            self.uses.call(token, macro)

    def theorem_declaration(self, token: Token) -> None:
        """`\\newtheorem{example}{Example}`: the document's theorem environment is text to read, even where a
        package's verbatim environment has the same name (`example`). Written on for the structure reader."""
        star = "*" if defs.star(self.stream) else ""
        name = defs.argument(self.stream)
        if name is not None:
            self.definitions.verbatim_environments.discard(name.strip())
        self.write(token.written + star + ("" if name is None else f"{{{name}}}"))

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
        elif second.kind == "macro" and second.name in self.macros and self.uses.expands(second.name):
            self.call(second, self.macros[second.name])
            stream.insert([first])
        else:
            stream.insert([first, second])


__all__ = ["Expansion", "ExpansionLimit", "Macro", "Param", "expand"]
