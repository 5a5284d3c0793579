"""The LaTeX documents of an upload, each planned before it is read and read at most once.

A main file (one with `\\documentclass`) is read with the files it includes (`\\input`, `\\include`,
`\\subfile`, `\\import`, and a `\\usepackage` of a `.sty` in the upload, for its macros) in place, relative to
the main file's folder (then the including file's); a `.tex` file that nothing includes is read alone. An
included file is never a document of its own.

Books come with several mains over one body: `book-a4.tex`, `book-ebook.tex` and `book-letter.tex` each set a
paper size and `\\input{main}`, a `main.tex` without `\\documentclass` that inputs the chapters. The files that
hold sections (`\\chapter`, `\\section`, …) of such mains are the same, so the later mains are variants of the
first: the book is read once, with the first main, under the id of the body file they share. Which files a
main reaches is read off the files' own include commands, before any macro is expanded, so that planning costs
no expansion. Files identical byte for byte are read once too.

Mains come first in path order (subfiles, `\\documentclass[…]{subfiles}`, after the others), then the files
read alone in path order.
"""
from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import PurePosixPath

from corpora.documents.archive import UNREADABLE, decoded
from corpora.documents.budgets import UploadTokens
from corpora.documents.hashed_files import HashedFiles
from corpora.documents.latex_expansion import expand
from corpora.documents.latex_includes import MissingInclude
from corpora.documents.latex_macros import Macro
from corpora.documents.latex_structure import latex_document
from corpora.documents.posts import Document, PlannedDocument, Unreadable

_COMMENT = re.compile(r"(?<!\\)%.*")
_INCLUDE = re.compile(r"\\(?P<command>input|include|subfile|(?:sub)?import|(?:sub)?(?:input|include)from)\s*"
                      r"(?:\{(?P<folder>[^{}]*)\}\s*(?=\{))?\{(?P<name>[^{}]*)\}|\\input\s+(?P<plain>[^\s{}\\]+)")
_ARCHIVES = (".zip", ".tar", ".tar.gz", ".tgz", ".gz")
_SECTIONS = re.compile(r"\\(?:part|chapter|section|subsection)\*?\s*[\[{]")


@dataclass(frozen=True)
class LatexPlan:
    documents: list[PlannedDocument]
    skipped: list[Unreadable]
    """Mains and files not read because another document covers them (a variant, an identical copy): why."""


def latex_plan(files: HashedFiles, paths: list[str], predefined: Mapping[str, Macro] | None = None) -> LatexPlan:
    """The documents of the `.tex` files among `paths` (sorted), see the module; `predefined` are the package
    macros every document may use without defining them."""
    texts: dict[str, str | Unreadable] = {path: _read(files, path) for path in paths}
    plain = {path: _COMMENT.sub("", text) if isinstance(text, str) else "" for path, text in texts.items()}
    kinds = {path: _kind(text) for path, text in plain.items()}
    mains = [path for path in paths if kinds[path] == "main"] + [path for path in paths if kinds[path] == "subfile"]
    reach = {path: _reach(files, path, plain, posixpath.dirname(path)) for path in mains}
    included = set().union(*reach.values()) if reach else set()
    planned, skipped, claimed, by_contents = [], [], dict[str, str](), dict[str, str]()
    reader = _Reader(files, texts, predefined or {})
    for path in mains + [path for path in paths if path not in included and path not in mains]:
        if path in included:
            continue
        text = texts[path]
        if isinstance(text, Unreadable):
            planned.append(PlannedDocument(path, (path,), partial(Unreadable, text.file, text.message)))
            continue
        twin = by_contents.setdefault(_contents(files, path, reach.get(path, set())), path)
        covered = [file for file in (path, *reach.get(path, ())) if _SECTIONS.search(plain.get(file, ""))]
        if twin != path:
            skipped.append(Unreadable(path, f"identical to {twin}: read once, as {twin}"))
        elif covered and all(file in claimed for file in covered):
            skipped.append(Unreadable(path, f"a variant of {claimed[covered[0]]} (the same sections): read once, "
                                            f"with it"))
        else:
            for file in covered:
                claimed.setdefault(file, path)
            document_id = _document_id(path, covered, mains, reach, files, plain) if path in reach else path
            planned.append(PlannedDocument(document_id, (path, *sorted(reach.get(path, ()))),
                                           partial(reader.document, path, document_id)))
    return LatexPlan(planned, skipped)


def _read(files: HashedFiles, path: str) -> str | Unreadable:
    try:
        return decoded(files.read(path), latin1=True)
    except UNREADABLE as error:
        return Unreadable(path, str(error))


def _contents(files: HashedFiles, path: str, reached: set[str]) -> str:
    """What a document is read from, by digest: a file and what it includes, identical byte for byte only when
    every one of them is (two papers' mains may be the same few lines over different sections)."""
    return " ".join([files.digests[path], *sorted(files.digests[file] for file in reached if file in files.digests)])


def _kind(text: str) -> str:
    r""""main" when `\documentclass` stands on one of the file's first lines (comments dropped), "subfile" for a
    `\documentclass[main.tex]{subfiles}` (read after the mains, alone only when no main includes it), or ""."""
    for line in text.split("\n", 400)[:400]:
        command = line.find("\\documentclass")
        if command >= 0:
            return "subfile" if "{subfiles}" in line[command:] else "main"
    return ""


def _reach(files: HashedFiles, start: str, plain: dict[str, str], main_folder: str) -> set[str]:
    """The `.tex` files that `start` includes, directly or through others, by their include commands as written."""
    found: set[str] = set()
    stack = [start]
    while stack:
        including = stack.pop()
        for match in _INCLUDE.finditer(plain.get(including, "")):
            command = match["command"] or "input"
            name = (match["folder"] or "") + (match["name"] if match["name"] is not None else match["plain"] or "")
            path = find(files, command, name.strip(), main_folder, posixpath.dirname(including))
            if path is not None and path != start and path not in found and path in plain:
                found.add(path)
                stack.append(path)
    return found


def _document_id(main: str, covered: list[str], mains: list[str], reach: dict[str, set[str]],
                 files: HashedFiles, plain: dict[str, str]) -> str:
    """Its main, or for a main whose sections other mains share (a book's paper sizes), the file they all
    include that holds or includes every section, when there is one."""
    others = [other for other in mains if other != main and set(covered) <= reach[other] | {other}]
    if not others or main in covered:
        return main
    for body in sorted(reach[main]):
        if all(body in reach[other] for other in others) and set(covered) <= _reach(
                files, body, plain, posixpath.dirname(main)) | {body}:
            return body
    return main


class _Reader:
    """Reads a planned main with what it includes, from the texts read while planning."""

    def __init__(self, files: HashedFiles, texts: dict[str, str | Unreadable], predefined: Mapping[str, Macro]):
        self.files, self.texts, self.predefined = files, texts, predefined
        self.tokens = UploadTokens()

    def document(self, path: str, document_id: str) -> Document | Unreadable:
        read = {path}
        main_folder = posixpath.dirname(path)

        def resolve(command: str, name: str, including: str) -> tuple[str, str]:
            found = find(self.files, command, name, main_folder, posixpath.dirname(including))
            if found is None:
                if command == "usepackage":
                    raise LookupError(name)
                raise MissingInclude("no such file in the upload")
            text = self.texts.get(found)
            if text is None:
                text = self.texts[found] = _read(self.files, found)
            if isinstance(text, Unreadable):
                raise ValueError(f"{found}: {text.message}")
            read.add(found)
            return found, _subfile_body(text) if command == "subfile" else text

        text = self.texts[path]
        if isinstance(text, Unreadable):  # pragma: no cover - the plan reads unreadable files as they are
            return text
        try:
            expansion = expand(text, path, resolve, self.predefined, self.tokens)
            document = latex_document(expansion, path, PurePosixPath(document_id).stem)
        except ValueError as error:
            return Unreadable(path, str(error))
        except Exception as error:  # pylatexenc failing on one document must not end the job
            return Unreadable(path, f"unexpected {type(error).__name__}: {error}")
        document.file = document_id
        document.files = {file: self.files.digests[file] for file in sorted(read) if file in self.files.digests}
        document.macros = {name: macro.to_json() for name, macro in expansion.macros.items()}
        return document


def find(files: HashedFiles, command: str, name: str, main_folder: str, folder: str) -> str | None:
    """The upload's file that an include command names, relative to the main's folder, then the including
    file's (a `\\subimport` only the latter); None when there is none."""
    if not name or name.startswith("/"):
        return None
    suffixes = (".sty",) if command == "usepackage" else ("", ".tex")
    folders = (folder,) if command.startswith("sub") and command != "subfile" else (main_folder, folder)
    for base in folders:
        for suffix in suffixes:
            candidate = posixpath.normpath(posixpath.join(base, name + suffix))
            if not candidate.startswith("../") and candidate in files and _paper(candidate) == _paper(main_folder):
                return candidate
    return None


def _paper(path: str) -> str:
    """The archive a path is in, in a folder of papers (`2101.00001.tar.gz/main.tex`): a paper never reads
    another's files."""
    first = path.split("/", 1)[0]
    return first if first.lower().endswith(_ARCHIVES) else ""


def _subfile_body(text: str) -> str:
    r"""A `\subfile`'s text between its `\begin{document}` and `\end{document}` (its preamble belongs to its
    own compilation), or all of it."""
    start = text.find("\\begin{document}")
    if start < 0:
        return text
    end = text.find("\\end{document}", start)
    return text[start + len("\\begin{document}"):end if end >= 0 else len(text)]
