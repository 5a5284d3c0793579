"""The math macros of common packages and classes (physics, siunitx, mathtools, esint, upgreek, Springer's and
A&A's classes, plain TeX, …) that KaTeX lacks, as macros whose replacement KaTeX renders: an upload rarely ships
the packages it loads, so without them `\\abs{x}` or `\\SI{3}{\\meter}` would stay in its formulas as commands
KaTeX does not know. The expander starts from these (its `predefined`); a document's own definitions replace them.

The table is data, `package_macros.tsv` (its header says how to read it), so that a test can render every entry
in KaTeX. No entry has the name of a command KaTeX knows: a document without the package must read as before
(physics's `\\div`, ∇·, would otherwise turn every ÷ into a divergence).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from corpora.documents.latex_macros import Macro, Param, xparse_params

TABLE_FILE = Path(__file__).with_name("package_macros.tsv")
_UNTIL = re.compile(r"u\{([^{}]*)\}")
_DELIMITER_TOKEN = re.compile(r"\\[A-Za-z@]+|\\.|\S")


class SpecError(ValueError):
    """An argument spec of the table that the expander cannot read."""

    def __init__(self, spec: str, part: str) -> None:
        super().__init__(f"argument spec {spec!r}: {part!r} is not xparse's m, o, O{{…}}, s, t, d, g or u{{…}}")
        self.spec = spec
        self.part = part


@dataclass(frozen=True)
class PackageMacro:
    """One row of the table: a command of `package`, its arguments in xparse's letters and its replacement."""

    name: str
    spec: str
    body: str
    package: str

    @property
    def macro(self) -> Macro:
        return Macro(self.name, params(self.spec), self.body)


def params(spec: str) -> tuple[Param, ...]:
    """The expander's parameters for an xparse argument spec, with `u{tokens}` (which xparse_params leaves out)
    for an argument up to the tokens; SpecError for what the expander cannot read."""
    out: list[Param] = []
    for index, part in enumerate(_UNTIL.split(spec)):
        if index % 2:
            out.append(Param("u", delimiters=tuple(_DELIMITER_TOKEN.findall(part))))
        elif (read := xparse_params(part)) is not None:
            out.extend(read)
        else:
            raise SpecError(spec, part)
    return tuple(out)


@cache
def package_table() -> tuple[PackageMacro, ...]:
    rows = []
    for line in TABLE_FILE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, spec, body, package = line.split("\t")
            rows.append(PackageMacro(name.removeprefix("\\"), spec, body, package))
    return tuple(rows)


def package_macros() -> dict[str, Macro]:
    """Name (no backslash) → macro, a new dict on each call for the caller to extend."""
    return dict(_macros())


@cache
def _macros() -> tuple[tuple[str, Macro], ...]:
    return tuple((row.name, row.macro) for row in package_table())
