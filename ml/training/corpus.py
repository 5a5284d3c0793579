"""The formulas we train on, read from corpus files by the same readers indexing uses (`corpora`).

Formats (see /work/shared/data/README.md): plain LaTeX lists, ARQMath `visual_id_file.tsv`
(visual id, SLT string or None, LaTeX or None), `formulas_slt_string.tsv` (formula id, post id,
SLT string), topic files (`B.1 \\t latex` text or the official XML), JSONL with a "latex" field or the
`{"notation", "text"}` lines `training_corpus --out` writes, the Wikipedia `{md5: latex}` JSON
(`make wiki-formulas`), and a folder (or one page) of ARQMath thread pages `threads-mathdowsers/`.
A malformed line is an error naming the file and line, never a silently skipped formula.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from corpora.jsonl_formulas import latex_field_record, notation_field_record
from corpora.latex_lines import latex_record
from corpora.mse_threads import read_thread_page, thread_pages
from corpora.records import IndexRecord, LineParser, SourceFormula, checked, read_lines
from corpora.slt_tsv import slt_record
from corpora.topic_latex import read_topic_latex
from corpora.topic_posts import read_topic_queries
from corpora.visual_ids import visual_id_record
from corpora.wiki_formulas import read_wiki_formulas
from mathparse import NOTATIONS, ParseError, parse, to_slt_string, tree_from_slt_string
from mathparse.tree import Tree


@dataclass(frozen=True)
class CorpusFormula:
    text: str
    kind: str
    """One of `mathparse.NOTATIONS`: LaTeX, Presentation MathML, or a Tangent SLT string."""
    source: str = ""
    """Where it came from (file:id), for reports on skipped formulas."""


@dataclass(frozen=True)
class SltOnly:
    """A formula known only by its layout (no operator tree), shaped like a parse result."""

    slt: Tree
    opt: Tree | None = None


def parse_formula(formula: CorpusFormula):
    """Graphs (`.slt`, `.opt`) of a raw formula; raises the parser's ParseError (a ValueError) on failure.

    An SLT string trains on its layout alone: giving it an operator tree was measured worse (models/default/README.md).
    """
    if formula.kind not in NOTATIONS:
        raise ValueError(f"unknown formula kind {formula.kind!r}; expected one of {NOTATIONS}")
    if formula.kind == "slt":
        return SltOnly(tree_from_slt_string(formula.text))
    return parse(formula.text, formula.kind)


def slt_string_of(formula: CorpusFormula) -> str | None:
    """The formula's SLT string (`parse_formula`'s layout tree), None when it cannot be parsed: what a pool of worker
    processes maps over a corpus, importable without Django."""
    try:
        return to_slt_string(parse_formula(formula).slt)
    except ParseError:
        return None


def _line_formulas(parse_line: LineParser, name: Callable[[IndexRecord, SourceFormula], object]):
    """A reader of the records' formulas, each sourced as `file:name` (line number, visual id, formula id…)."""
    def read(path: Path) -> Iterator[CorpusFormula]:
        for record in checked(read_lines(path, parse_line), path):
            for formula in record.formulas:
                yield CorpusFormula(formula.text, formula.notation, f"{path.name}:{name(record, formula)}")
    return read


def read_topics(path: Path) -> Iterator[CorpusFormula]:
    """Query formulas of a topic file: `id <tab> latex` lines, or the `<Latex>` of each topic of the official XML."""
    if path.suffix == ".xml":
        queries = read_topic_queries(path).checked(path)
        for number, latex in enumerate(queries.values(), 1):
            yield CorpusFormula(latex, "latex", f"{path.name}:{number}")
        return
    for topic, latex in read_topic_latex(path).checked(path).items():
        yield CorpusFormula(latex, "latex", f"{path.name}:{topic}")


def read_wiki(path: Path) -> Iterator[CorpusFormula]:
    """The Wikipedia formulas of `make wiki-formulas`, each sourced by its md5."""
    for md5, latex in read_wiki_formulas(path).checked(path).items():
        yield CorpusFormula(latex, "latex", f"{path.name}:{md5}")


def read_thread_formulas(path: Path) -> Iterator[CorpusFormula]:
    """Every formula of a folder (or one page) of thread pages, each sourced by page and formula id."""
    for page in thread_pages(path):
        for formula in read_thread_page(page).checked(page).formulas:
            yield CorpusFormula(formula.text, formula.notation, f"{page.name}:{formula.formula_id}")


READERS = {
    "latex": _line_formulas(latex_record, lambda record, _: record.line),
    # LaTeX where the file has it, else the SLT string (1,443 judged visual ids only have that)
    "visual_ids": _line_formulas(visual_id_record, lambda record, _: record.post.source_id),
    "slt_strings": _line_formulas(slt_record, lambda _, formula: formula.position),
    "topics": read_topics,
    "jsonl": _line_formulas(latex_field_record, lambda record, _: record.line),
    "formulas_jsonl": _line_formulas(notation_field_record, lambda record, _: record.post.source_id),
    "wiki_json": read_wiki,
    "mse_html": read_thread_formulas,
}
FOLDER_FORMATS = ("mse_html",)


def read_corpus(path: str | Path, fmt: str) -> Iterator[CorpusFormula]:
    """Formulas of one file in a named format (one of READERS)."""
    if fmt not in READERS:
        raise ValueError(f"unknown corpus format {fmt!r}; expected one of {sorted(READERS)}")
    return READERS[fmt](Path(path))


def read_corpus_spec(spec: str) -> Iterator[CorpusFormula]:
    """Formulas of a `PATH:FORMAT` command-line spec; ValueError names what is wrong with it."""
    path, _, fmt = spec.rpartition(":")
    if not path or not (Path(path).is_file() or (fmt in FOLDER_FORMATS and Path(path).is_dir())):
        raise ValueError(f"--corpus {spec!r}: give an existing PATH:FORMAT")
    return read_corpus(path, fmt)


def unique(formulas: Iterable[CorpusFormula]) -> Iterator[CorpusFormula]:
    """Each (kind, text) once: the paper trains on visually unique formulas."""
    seen: set[tuple[str, str]] = set()
    for formula in formulas:
        key = (formula.kind, formula.text)
        if key not in seen:
            seen.add(key)
            yield formula

