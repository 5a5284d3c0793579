"""The `documents` corpus format: LaTeX, Markdown, notebooks and web pages (a file, a folder or a zip), a post
per section, numbered over the whole job so that a job can resume by skipping the first N items.

Order: the LaTeX documents (see latex_projects), then the other files in path order. Files of other kinds in
a folder or zip are ignored (images, `.sty`, `.bib`); an upload with no document at all is a ValueError.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ml.data.documents.archive import UNREADABLE, DocumentFiles, document_files
from ml.data.documents.html_pages import html_document
from ml.data.documents.latex_projects import latex_documents
from ml.data.documents.markdown import markdown_document
from ml.data.documents.notebooks import notebook_document
from ml.data.documents.posts import Document, Formula, SourceIds, Unreadable, post
from ml.data.records import IndexRecord, Item, RecordError

TextReader = Callable[[bytes, str], Document]
"""(a file's bytes, its path) → its document; ValueError says why it cannot be read."""
READERS: dict[str, TextReader] = {
    ".md": markdown_document, ".markdown": markdown_document, ".ipynb": notebook_document,
    ".html": html_document, ".htm": html_document,
}
EXTENSIONS = (".tex", *READERS)


@dataclass(frozen=True)
class DocumentFormula:
    """A formula as the benchmark counts it: its file, text, notation, display (own line) or inline, anchor."""

    file: str
    text: str
    notation: str
    display: bool
    anchor: str


def read_documents(path: str | Path) -> Iterator[Document | Unreadable]:
    """Each document of a file, folder or zip (see the module), or why a file gives none; ValueError when the
    upload cannot be opened or holds no document."""
    files = document_files(path)
    chosen = [name for name in files.paths if PurePosixPath(name).suffix.lower() in EXTENSIONS]
    if not chosen:
        raise ValueError(f"{Path(path).name}: no document to read (looked for {', '.join(EXTENSIONS)} files)")
    yield from latex_documents(files, [name for name in chosen if name.lower().endswith(".tex")])
    for name in chosen:
        reader = READERS.get(PurePosixPath(name).suffix.lower())
        if reader is not None:
            yield _read(files, name, reader)


def _read(files: DocumentFiles, name: str, reader: TextReader) -> Document | Unreadable:
    try:
        return reader(files.read(name), name)
    except UNREADABLE as error:
        return Unreadable(name, str(error))
    except Exception as error:  # a third-party parser failing on one file must not end the job
        return Unreadable(name, f"unexpected {type(error).__name__}: {error}")


def document_records(path: str | Path) -> Iterator[Item]:
    """Each section of each document as an `IndexRecord`, and each problem as a `RecordError` naming its file,
    numbered 1, 2, … over the whole job."""
    number = 0
    for document in read_documents(path):
        if isinstance(document, Unreadable):
            number += 1
            yield RecordError(number, f"{document.file}: {document.message}")
            continue
        for problem in document.problems:
            number += 1
            yield RecordError(number, problem)
        ids = SourceIds()
        for section in document.sections:
            try:
                made = post(document, section, ids)
            except ValueError as error:
                number += 1
                yield RecordError(number, f"{section.file}: section {section.heading or '(before the first)'!r}: {error}")
                continue
            if made is not None:
                number += 1
                yield IndexRecord(number, *made)


def document_formulas(path: str | Path) -> Iterator[DocumentFormula]:
    """Every formula of the readable documents in order, with whether it is displayed (the benchmark counts
    display formulas)."""
    for document in read_documents(path):
        if isinstance(document, Document):
            for section in document.sections:
                for piece in section.pieces:
                    if isinstance(piece, Formula):
                        yield DocumentFormula(section.file, piece.text, piece.notation, piece.display, piece.anchor)
