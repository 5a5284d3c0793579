"""A document's definitions as TeX's first stage reads them: `\\newcommand` and its kin, `\\def` and `\\let`,
`\\DeclareMathOperator`, xparse's `\\NewDocumentCommand` family, `\\newenvironment`, and the verbatim
environments a document declares; with TeX's groups, which end the definitions made inside them.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from corpora.documents import latex_macros as defs
from corpora.documents.latex_macros import Environment, Macro
from corpora.documents.latex_tokens import Token, TokenStream

NEWCOMMANDS = frozenset({"newcommand", "renewcommand", "providecommand", "DeclareRobustCommand"})
DEFS = frozenset({"def", "gdef", "edef", "xdef"})
NEWENVIRONMENTS = frozenset({"newenvironment", "renewenvironment", "provideenvironment"})
XPARSE = frozenset({"NewDocumentCommand", "RenewDocumentCommand", "ProvideDocumentCommand",
                    "DeclareDocumentCommand", "NewExpandableDocumentCommand", "DeclareExpandableDocumentCommand"})
VERBATIM_DECLARATIONS = {"DefineVerbatimEnvironment": 2, "lstnewenvironment": 2, "newtcblisting": 1,
                         "DeclareTCBListing": 1, "NewTCBListing": 1}
"""Commands declaring a verbatim environment → how many arguments follow its name (options or code)."""
MAX_EDEF_CHARS = 10_000
LETS = frozenset({"let", "LetLtxMacro", "NewCommandCopy"})
DEFINING = NEWCOMMANDS | DEFS | NEWENVIRONMENTS | XPARSE | LETS | set(VERBATIM_DECLARATIONS) | {"DeclareMathOperator"}


class Definitions:
    """The macros and environments in force, as the definitions read so far left them."""

    def __init__(self, stream: TokenStream, macros: dict[str, Macro], predefined: Mapping[str, Macro],
                 verbatim_environments: Iterable[str]) -> None:
        self.stream = stream
        self.macros = macros
        self.predefined = predefined
        self.defined: set[str] = set()  # the names the document gave a meaning
        self.environments: dict[str, Environment] = {}
        self.verbatim_environments = set(verbatim_environments)
        self.scopes: list[dict[str, Macro | None]] = []  # per open group: the meanings it replaced
        self.global_next = False
        self.expl = False  # inside \ExplSyntaxOn: names hold `_` and `:`, which the tokenizer does not join

    def handles(self, name: str) -> bool:
        return name in DEFINING or name in ("ExplSyntaxOn", "ExplSyntaxOff")

    def own_macros(self) -> dict[str, Macro]:
        """The document's own macros in their final meaning, `@` names too: the internals its public macros call
        (`\\matI*` reads `\\@matIs`), which a query written with them needs as well."""
        return {name: self.macros[name] for name in sorted(self.defined)
                if name in self.macros and self.macros[name] is not self.predefined.get(name)}

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
        self.defined.add(name)

    def define(self, token: Token) -> None:
        """Reads the definition `token` starts."""
        if token.name in ("ExplSyntaxOn", "ExplSyntaxOff"):
            self.expl = token.name == "ExplSyntaxOn"
            return
        try:
            self.definition(token.name, self.stream.reading_at_letter)
        finally:
            self.global_next = False

    def definition(self, name: str, at_letter: bool) -> None:
        stream = self.stream
        starred = defs.star(stream)
        if name in NEWCOMMANDS:
            macro = defs.macro_name(defs.argument(stream))
            params = defs.newcommand_params(stream)
            body = defs.argument(stream) or ""
            if macro and not (name == "providecommand" and macro in self.macros):
                self.assign(macro, Macro(macro, params, body, at_letter=at_letter))
        elif name in DEFS:
            self.tex_def(name, at_letter)
        elif name in LETS:
            self.let(name)
        elif name == "DeclareMathOperator":
            macro = defs.macro_name(defs.argument(stream))
            text = defs.argument(stream) or ""
            if macro:
                self.assign(macro, Macro(macro, body=f"\\operatorname{'*' if starred else ''}{{{text}}}"))
        elif name in XPARSE:
            macro = defs.macro_name(defs.argument(stream))
            kinds = defs.xparse_params(defs.argument(stream) or "")
            body = defs.argument(stream) or ""
            if macro and kinds is not None and not (name == "ProvideDocumentCommand" and macro in self.macros):
                self.assign(macro, Macro(macro, kinds, body, at_letter=at_letter))
        elif name in NEWENVIRONMENTS:
            self.newenvironment()
        else:
            self.verbatim_environment(name)

    def tex_def(self, name: str, at_letter: bool) -> None:
        """`\\def` and its kin, whose parameter text may delimit arguments (`\\def\\lam#1.#2{…}`)."""
        target = self.stream.next()
        prefix, params = defs.def_params(self.stream)
        body = defs.argument(self.stream) or ""
        if target is None or target.kind != "macro":
            return
        now = self.expanded_now(target.name, body) if name in ("edef", "xdef") else body
        macro = Macro(target.name, primitive="\\" + target.name) if now is None else Macro(
            target.name, params, now, prefix, at_letter=at_letter)  # an edef that cannot be is written as is
        self.assign(target.name, macro, name in ("gdef", "xdef"))

    def expanded_now(self, name: str, body: str) -> str | None:
        """An `\\edef`'s body with its own name in it replaced by its meaning before (`\\edef\\x{\\x+1}` adds
        to the old `\\x`), the one expansion that must happen at once; the rest is expanded at each use. None when
        that meaning cannot be put in (it takes arguments, or there is none): the macro would call itself."""
        uses = body.count(f"\\{name}")
        if not uses:
            return body
        old = self.macros.get(name)
        if old is None or old.params or old.primitive or len(old.body) * uses > MAX_EDEF_CHARS:
            return None  # rather than a body doubling at each `\\edef\\x{\\x\\x}`
        return re.sub(rf"\\{re.escape(name)}(?![^\W\d_])", lambda _: "{" + old.body + "}", body)

    def newenvironment(self) -> None:
        stream = self.stream
        environment = (defs.argument(stream) or "").strip()
        params = defs.newcommand_params(stream)
        begin, end = defs.argument(stream) or "", defs.argument(stream) or ""
        if environment:
            self.environments[environment] = Environment(environment, params, begin, end)
            self.verbatim_environments.discard(environment)  # the document's own `example` is text

    def verbatim_environment(self, name: str) -> None:
        """A verbatim environment of the document's own: its name, then options or code to skip."""
        environment = (defs.argument(self.stream) or "").strip()
        self.verbatim_environments.add(environment)
        self.environments.pop(environment, None)
        if name == "lstnewenvironment":
            defs.newcommand_params(self.stream)
        for _ in range(VERBATIM_DECLARATIONS[name]):
            defs.argument(self.stream)

    def let(self, name: str) -> None:
        """`\\let\\a\\b` (or `\\let\\a=\\b`, `\\LetLtxMacro{\\a}{\\b}`): `\\a` gets the meaning `\\b` has now."""
        stream = self.stream
        if name != "let":
            target_name, source_text = defs.macro_name(defs.argument(stream)), (defs.argument(stream) or "").strip()
            source = Token("macro", source_text[1:], source_text) if source_text.startswith("\\") else None
        else:
            target = stream.next()
            target_name = target.name if target is not None and target.kind == "macro" else ""
            source = stream.next()
            while source is not None and (source.kind == "space" or (source.kind == "char" and source.name == "=")):
                source = stream.next()
        if not target_name or source is None:
            return
        if source.kind == "macro" and source.name in self.macros:
            meaning = self.macros[source.name]
            self.assign(target_name, Macro(target_name, meaning.params, meaning.body, meaning.prefix,
                                           meaning.primitive, meaning.at_letter))
        else:  # a macro with no meaning here, or a character: written as it is (and `\\ifx` finds it equal)
            self.assign(target_name, Macro(target_name, primitive=source.text))
