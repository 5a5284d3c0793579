"""The LaTeX documents of an upload: each main file (one with `\\documentclass`) with the files it includes
(`\\input`, `\\include`, `\\subfile`, `\\import`, and a `\\usepackage` of a `.sty` in the upload, for its
macros) read in place, relative to the main file's folder (then the including file's); then each `.tex` file
nobody included, read alone. An included file is never a document of its own.

The mains come first in path order (subfiles, `\\documentclass[…]{subfiles}`, after the others), then the
files read alone in path order. A main that another main includes is read once, with the first main that
reaches it: if that main sorts after it, it is read twice.
"""
from __future__ import annotations

import posixpath
from collections.abc import Iterator
from pathlib import PurePosixPath

from ml.data.documents.archive import UNREADABLE, DocumentFiles, decoded
from ml.data.documents.latex_expansion import expand
from ml.data.documents.latex_structure import latex_document
from ml.data.documents.posts import Document, Unreadable


def latex_documents(files: DocumentFiles, paths: list[str]) -> Iterator[Document | Unreadable]:
    """The documents of the `.tex` files among `paths` (sorted), see the module."""
    texts: dict[str, str | Unreadable] = {path: _read(files, path) for path in paths}
    kinds = {path: _kind(text) if isinstance(text, str) else "" for path, text in texts.items()}
    mains = [path for path in paths if kinds[path] == "main"] + [path for path in paths if kinds[path] == "subfile"]
    included: set[str] = set()
    for path in mains:
        if path not in included:
            yield _document(files, path, texts, included)
    for path in paths:
        if path in included or path in mains:
            continue
        text = texts[path]
        yield text if isinstance(text, Unreadable) else _document(files, path, texts, included)


def _read(files: DocumentFiles, path: str) -> str | Unreadable:
    try:
        return decoded(files.read(path), latin1=True)
    except UNREADABLE as error:
        return Unreadable(path, str(error))


def _kind(text: str) -> str:
    r""""main" when `\documentclass` stands before any `%` on one of the file's first lines, "subfile" for a
    `\documentclass[main.tex]{subfiles}` (read after the mains, alone only when no main includes it), or ""."""
    for line in text.split("\n", 400)[:400]:
        command = line.find("\\documentclass")
        comment = line.find("%")
        if command >= 0 and (comment < 0 or command < comment):
            return "subfile" if "{subfiles}" in line[command:] else "main"
    return ""


def _document(files: DocumentFiles, path: str, texts: dict[str, str | Unreadable],
              included: set[str]) -> Document | Unreadable:
    main_folder = posixpath.dirname(path)

    def resolve(command: str, name: str, including: str) -> tuple[str, str]:
        found = _find(files, command, name, main_folder, posixpath.dirname(including))
        if found is None:
            if command == "usepackage":
                raise LookupError(name)
            raise ValueError("no such file in the upload")
        included.add(found)
        text = texts.get(found)
        if text is None:
            text = texts[found] = _read(files, found)
        if isinstance(text, Unreadable):
            raise ValueError(f"{found}: {text.message}")
        return found, _subfile_body(text) if command == "subfile" else text

    text = texts[path]
    if isinstance(text, Unreadable):  # pragma: no cover - callers pass readable files
        return text
    try:
        return latex_document(expand(text, path, resolve), path, PurePosixPath(path).stem)
    except ValueError as error:
        return Unreadable(path, str(error))
    except Exception as error:  # pylatexenc failing on one document must not end the job
        return Unreadable(path, f"unexpected {type(error).__name__}: {error}")


def _find(files: DocumentFiles, command: str, name: str, main_folder: str, folder: str) -> str | None:
    if not name or name.startswith("/"):
        return None
    suffixes = (".sty",) if command == "usepackage" else ("", ".tex")
    folders = (folder,) if command.startswith("sub") and command != "subfile" else (main_folder, folder)
    for base in folders:
        for suffix in suffixes:
            candidate = posixpath.normpath(posixpath.join(base, name + suffix))
            if not candidate.startswith("../") and candidate in files:
                return candidate
    return None


def _subfile_body(text: str) -> str:
    r"""A `\subfile`'s text between its `\begin{document}` and `\end{document}` (its preamble belongs to its
    own compilation), or all of it."""
    start = text.find("\\begin{document}")
    if start < 0:
        return text
    end = text.find("\\end{document}", start)
    return text[start + len("\\begin{document}"):end if end >= 0 else len(text)]
