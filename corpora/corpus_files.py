"""The corpus file formats indexing accepts, by name: each file read as `IndexRecord`s or `RecordError`s in order."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from corpora.arqmath_formulas import formula_record
from corpora.documents import document_records
from corpora.jsonl_posts import post_record
from corpora.latex_lines import latex_record
from corpora.mse_threads import thread_records
from corpora.records import Item, LineParser, SourceFormula, checked, read_lines
from corpora.slt_tsv import slt_record
from corpora.visual_ids import visual_id_record

LINE_PARSERS: dict[str, LineParser] = {
    "jsonl": post_record,  # posts {"id","title","body","url","tags","parent"}, formulas found in the body
    "arqmath": formula_record,  # ARQMath formula TSV `id post_id thread_id type visual_id formula`, with header
    "visual_ids": visual_id_record,  # ARQMath-1 `visual_id_file.tsv`
    "slt_tsv": slt_record,  # Tangent SLT strings `formula_id post_id slt` (`formulas_slt_string.tsv`)
    "latex": latex_record,  # one formula per line
}
PAGE_READERS = {
    "mse_html": thread_records,  # Math StackExchange thread pages (a page or a folder): a question and an answer a page
    "documents": document_records,  # LaTeX, Markdown, notebooks and web pages (a file, a folder, or a zip): a post per section
}
FORMATS = (*LINE_PARSERS, *PAGE_READERS)
HEADER_FORMATS = ("arqmath",)


def read_records(path: str | Path, format: str) -> Iterator[Item]:
    if format in PAGE_READERS:
        return PAGE_READERS[format](path)
    if format not in LINE_PARSERS:
        raise ValueError(f"unknown format {format!r}; choose one of {', '.join(FORMATS)}")
    return read_lines(Path(path), LINE_PARSERS[format], skip_header=format in HEADER_FORMATS)


def read_formulas(path: str | Path, format: str) -> list[SourceFormula]:
    """Every formula of a file in order, or MalformedFile naming its bad lines: for readers that need all of it."""
    return [formula for record in checked(read_records(path, format), path) for formula in record.formulas]
