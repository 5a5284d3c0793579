"""The `documents` corpus format: LaTeX, Markdown, notebooks and web pages (a file, a folder, a zip or arXiv's
`.tar.gz`/`.gz` sources, or a folder of those: each archive a paper), a post
per section. An upload is first planned from its listing (`plan_upload`), then each document is read on its own,
so that indexing the same upload again reads only the documents that changed.

Order: the LaTeX documents (see latex_projects), then the other files in path order. Files of other kinds in
a folder or zip are ignored (images, `.sty`, `.bib`); an upload with no document at all is a ValueError.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path, PurePosixPath

from corpora.documents.archive import UNREADABLE, document_files
from corpora.documents.hashed_files import HashedFiles
from corpora.documents.html_pages import html_document
from corpora.documents.latex_projects import latex_plan
from corpora.documents.markdown import markdown_document
from corpora.documents.notebooks import notebook_document
from corpora.documents.package_macros import package_macros
from corpora.documents.posts import Document, Formula, PlannedDocument, SourceIds, Unreadable, post
from corpora.documents.problems import ReadProblem
from corpora.records import IndexRecord, Item, RecordError

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


@dataclass(frozen=True)
class Upload:
    """An upload's documents planned from its listing: nothing is expanded or parsed until a document is read,
    so a job shows its files from the start and skips the documents it finds unchanged."""

    files: HashedFiles
    chosen: list[str]
    """The files of the listing that are documents or parts of one (what progress counts)."""
    documents: list[PlannedDocument]
    skipped: list[Unreadable]
    """Files not read because another document covers them (a paper size's variant, an identical copy)."""


def plan_upload(path: str | Path) -> Upload:
    """The plan of a file, folder or zip (see the module); ValueError when the upload cannot be opened or holds
    no document."""
    listed = document_files(path)
    files = HashedFiles(listed)
    chosen = [name for name in files.paths if PurePosixPath(name).suffix.lower() in EXTENSIONS]
    if not chosen and not listed.refused:
        raise ValueError(f"{Path(path).name}: no document to read (looked for {', '.join(EXTENSIONS)} files)")
    refused = [PlannedDocument(name, (), partial(Unreadable, name, why)) for name, why in listed.refused.items()]
    latex = latex_plan(files, [name for name in chosen if name.lower().endswith(".tex")], package_macros())
    others = [PlannedDocument(name, (name,), partial(_read, files, name, reader)) for name in chosen
              if (reader := READERS.get(PurePosixPath(name).suffix.lower())) is not None]
    return Upload(files, chosen, refused + latex.documents + others, latex.skipped)


def read_documents(path: str | Path) -> Iterator[Document | Unreadable]:
    """Each document of a file, folder or zip, read, or why a file gives none."""
    for planned in plan_upload(path).documents:
        yield planned.read()


def _read(files: HashedFiles, name: str, reader: TextReader) -> Document | Unreadable:
    try:
        document = reader(files.read(name), name)
    except UNREADABLE as error:
        return Unreadable(name, str(error))
    except Exception as error:  # a third-party parser failing on one file must not end the job
        return Unreadable(name, f"unexpected {type(error).__name__}: {error}")
    document.files = {name: files.digests[name]}
    return document


def section_items(document: Document | Unreadable, number: int) -> list[Item]:
    """A read document's sections as `IndexRecord`s and its problems (`ReadProblem`s) as `RecordError`s, numbered
    from `number` + 1 on."""
    if isinstance(document, Unreadable):
        return [_problem_error(number + 1, ReadProblem(document.file, None, "unreadable", document.message))]
    items: list[Item] = [_problem_error(number + index, problem) for index, problem in enumerate(document.problems, 1)]
    ids = SourceIds()
    for section in document.sections:
        try:
            made = post(document, section, ids)
        except ValueError as error:
            refused = ReadProblem(section.file, None, "section-refused",
                                  f"section {section.heading or '(before the first)'!r}: {error}")
            items.append(_problem_error(number + len(items) + 1, refused))
            continue
        if made is not None:
            items.append(IndexRecord(number + len(items) + 1, *made))
    return items


def _problem_error(number: int, problem: ReadProblem) -> RecordError:
    """The record error of job record `number` that is `problem`: its text as one line, its fields kept."""
    return RecordError(number, str(problem), problem.kind, problem.file, problem.line)


def document_records(path: str | Path) -> Iterator[Item]:
    """Each section of each document as an `IndexRecord`, and each problem as a `RecordError` naming its file,
    numbered 1, 2, … over the whole job."""
    number = 0
    for document in read_documents(path):
        items = section_items(document, number)
        number += len(items)
        yield from items


def document_formulas(path: str | Path) -> Iterator[DocumentFormula]:
    """Every formula of the readable documents in order, with whether it is displayed (the benchmark counts
    display formulas)."""
    for document in read_documents(path):
        if isinstance(document, Document):
            for section in document.sections:
                for piece in section.pieces:
                    if isinstance(piece, Formula):
                        yield DocumentFormula(section.file, piece.text, piece.notation, piece.display, piece.anchor)
