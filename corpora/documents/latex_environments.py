"""`\\begin{…}` and `\\end{…}` as the expander meets them: a verbatim environment's content set aside
(latex_verbatim), the document's own environments expanded like macros (latex_uses), any other written on for
the structure reader. The text after the document's last `\\end{document}` is not read.
"""
from __future__ import annotations

from corpora.documents import latex_macros as defs
from corpora.documents.latex_definitions import Definitions
from corpora.documents.latex_macros import Macro
from corpora.documents.latex_output import ExpandedText
from corpora.documents.latex_tokens import Token, TokenStream
from corpora.documents.latex_uses import MacroUses
from corpora.documents.latex_verbatim import VerbatimReader


class Environments:
    def __init__(self, stream: TokenStream, output: ExpandedText, definitions: Definitions, uses: MacroUses,
                 verbatim: VerbatimReader) -> None:
        self.stream = stream
        self.output = output
        self.definitions = definitions
        self.uses = uses
        self.verbatim = verbatim
        self.documents_open = 0  # `\begin{document}`s not yet ended
        self.done = False
        """The document has ended: what follows is not read."""

    def read(self, token: Token) -> None:
        """`\\begin` or `\\end` (`token`) and the environment's name that follows it."""
        stream = self.stream
        opening = stream.peek()
        name = defs.argument(stream) if opening is not None and opening.kind == "brace_open" else None
        if name is None:
            self.output.write(token.written)
            return
        name = name.strip()
        if token.name == "begin" and name in self.definitions.verbatim_environments:
            self.verbatim.environment(token.space, name)
            return
        environment = self.definitions.environments.get(name)
        if environment is not None and self.uses.expands(name):
            replacement = Macro(name, environment.params if token.name == "begin" else (),
                                environment.begin if token.name == "begin" else environment.end)
            self.uses.call(Token("macro", name, token.text + "{" + name + "}", token.space), replacement)
            return
        self.output.write(f"{token.written}{{{name}}}")
        if name == "document" and len(stream.frames) == 1:  # an example of a whole document holds one of its own
            self.documents_open += 1 if token.name == "begin" else -1
            self.done = self.documents_open <= 0
