"""Jupyter notebooks: their Markdown cells, read one after another as Markdown (a cell's `#` heading starts a
section), each parsed on its own as Jupyter renders it; code cells and outputs are not read."""
from __future__ import annotations

import warnings

import nbformat

from corpora.documents.archive import decoded
from corpora.documents.markdown import markdown_sections
from corpora.documents.posts import Document


def notebook_document(data: bytes, path: str) -> Document:
    """ValueError when the file is not a notebook nbformat can read."""
    try:
        with warnings.catch_warnings():  # a cell without an id is read all the same
            warnings.simplefilter("ignore")
            notebook = nbformat.reads(decoded(data), as_version=4)
        cells = [cell for cell in notebook.cells if cell.get("cell_type") == "markdown"]
        texts = [_source(cell.get("source", "")) for cell in cells]
    except (ValueError, KeyError, TypeError, AttributeError, nbformat.ValidationError) as error:
        first_line = (str(error).splitlines() or [""])[0]
        raise ValueError(f"not a readable notebook ({type(error).__name__}: {first_line})") from None
    return markdown_sections(texts, path)


def _source(source: object) -> str:
    return "".join(source) if isinstance(source, list) else str(source)
