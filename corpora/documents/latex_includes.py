"""The files a LaTeX document reads in place (`\\input`, `\\include`, `\\import`, a package of the upload's own):
each read where it is named, with `\\mathsearchfile{path}` where its text starts and where the including file
resumes. A missing or unreadable file or an include cycle is a problem of the including file; a system package
is not read.
"""
from __future__ import annotations

from collections.abc import Callable

from corpora.documents import latex_macros as defs
from corpora.documents.latex_output import ExpandedText
from corpora.documents.latex_tokens import Frame, Token, TokenStream
from corpora.documents.latex_uses import MacroUses
from corpora.documents.problems import ProblemKind, ReadProblem

FILE_MARKER = "mathsearchfile"
INCLUDES = frozenset({"input", "include", "subfile", "import", "subimport", "inputfrom", "subinputfrom",
                      "includefrom", "subincludefrom", "usepackage"})

Resolver = Callable[[str, str, str], tuple[str, str]]
"""(command, argument, including file) → (the included file's path, its text); MissingInclude when the upload has no
such file, ValueError when it cannot be read. For `\\usepackage` it raises LookupError when the package is not part
of the upload (a system package)."""


class MissingInclude(ValueError):
    """An included file the upload does not hold."""


class Includes:
    def __init__(self, stream: TokenStream, output: ExpandedText, uses: MacroUses, problems: list[ReadProblem],
                 resolve: Resolver) -> None:
        self.stream = stream
        self.output = output
        self.uses = uses
        """Told of each file read: the document's token budget grows with its files."""
        self.problems = problems
        self.resolve = resolve
        self.included: set[str] = set()

    def include(self, token: Token) -> None:
        """One of INCLUDES: each file it names read in place."""
        stream, command = self.stream, token.name
        self.output.write(token.space)
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
            kind: ProblemKind = "include-missing" if isinstance(error, MissingInclude) else "include-unreadable"
            self.problems.append(ReadProblem(including, None, kind, f"\\{command}{{{name}}}: {error}"))
            return
        chain = [frame.file for frame in stream.frames if frame.file]
        if path in chain:
            cycle = " → ".join([*chain[chain.index(path):], path])
            self.problems.append(ReadProblem(including, None, "include-cycle",
                                             f"\\{command}{{{name}}}: include cycle {cycle}"))
            return
        self.included.add(path)
        self.output.write(f"\\{FILE_MARKER}{{{path}}}")
        self.read_text(path, text)

    def read_text(self, path: str, text: str) -> None:
        """The text of the file `path`, read next."""
        self.output.chars.spend(path, len(text), read=True)
        self.stream.push(Frame(text, file=path))
        self.uses.source_read(len(text))

    def end_of_file(self) -> None:
        """Back to the file that included the one just read."""
        self.stream.pop_file()
        if self.stream.frames:
            self.output.write(f"\\{FILE_MARKER}{{{self.stream.file}}}")
