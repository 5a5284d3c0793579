"""Verbatim material in a LaTeX document, set aside unread: `\\verb|…|` and its kin, the `|…|` of
`\\MakeShortVerb{\\|}`, and verbatim environments. The text keeps a marker in its place:
`\\mathsearchverbatim{n}` for the n-th inline piece, `\\mathsearchcode{n}` for an environment's content.
"""
from __future__ import annotations

from corpora.documents import latex_macros as defs
from corpora.documents.latex_output import ExpandedText
from corpora.documents.latex_tokens import Token, TokenStream

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


class VerbatimReader:
    def __init__(self, stream: TokenStream, output: ExpandedText) -> None:
        self.stream = stream
        self.output = output
        self.short_verbs: set[str] = set()
        """`\\MakeShortVerb{\\|}`: |…| is \\verb|…|."""

    def short_verb(self, name: str) -> None:
        """`\\MakeShortVerb` or `\\DeleteShortVerb`: its character starts inline verbatim, or no longer."""
        defs.star(self.stream)
        character = (defs.argument(self.stream) or "").strip().lstrip("\\")
        if len(character) == 1:
            (self.short_verbs.add if name == "MakeShortVerb" else self.short_verbs.discard)(character)

    def inline(self, token: Token) -> None:
        """`\\verb` and its kin: the content up to the delimiter that follows them (`}` after `{`)."""
        stream = self.stream
        if token.name == "mintinline":
            defs.argument(stream)  # the language
        elif token.name in ("lstinline", "Verb"):
            defs.optional(stream)
        delimiter = stream.raw_char()
        if delimiter == "*" and token.name == "verb":
            delimiter = stream.raw_char()
        self.inline_to(token.space, "}" if delimiter == "{" else delimiter)

    def inline_to(self, space: str, closing: str) -> None:
        """The content up to `closing` set aside, its marker written after `space`."""
        self.output.write(space)
        content = self.stream.raw_until(closing) if closing else ""
        index = self.output.set_aside(content or "")
        self.output.write(f"\\{VERBATIM_MARKER}{{{index}}}")

    def environment(self, space: str, name: str) -> None:
        """The content of a verbatim environment `name` just begun, up to its end, set aside (or dropped)."""
        content = self.stream.raw_until(f"\\end{{{name}}}") or ""
        if name not in DROPPED_ENVIRONMENTS:
            index = self.output.set_aside(content.strip("\n"))
            self.output.write(f"{space}\\{CODE_MARKER}{{{index}}}")
