"""The reader on a book written the way real ones are (tests/data/macro_book): a macro file with @-internals,
`\\@ifnextchar`, `\\ensuremath…\\xspace`, optional, delimited and xparse arguments; three paper-size mains over one
`main.tex` without `\\documentclass`; cleveref, `\\eqref` and `\\autoref` references."""
import re

from corpora.documents import document_records, plan_upload
from corpora.documents.renderable import renderable
from corpora.records import IndexRecord
from tests.conftest import REPO

BOOK = REPO / "tests" / "data" / "macro_book"
DEFINED = frozenset(re.findall(r"\\(?:newcommand\*?|DeclareRobustCommand|NewDocumentCommand|def)\{?\\([A-Za-z@]+)",
                               (BOOK / "macros.tex").read_text()) + ["tr"])


def records() -> list[IndexRecord]:
    return [item for item in document_records(BOOK) if isinstance(item, IndexRecord)]


def test_the_book_is_one_document_read_once_each_section_once():
    plan = plan_upload(BOOK)
    assert [planned.path for planned in plan.documents] == ["main.tex"]
    assert sorted(skipped.file for skipped in plan.skipped) == ["book-ebook.tex", "book-letter.tex"]
    ids = [record.post.source_id for record in records()]
    assert ids == ["main.tex#type-theory", "chapters/universes.tex#universes", "chapters/paths.tex#path-induction",
                   "main.tex#solutions-to-chapter-1"]
    assert [error for error in document_records(BOOK) if not isinstance(error, IndexRecord)] == []


def test_no_formula_keeps_a_command_of_the_macro_file_and_katex_knows_every_command():
    formulas = [formula.text for record in records() for formula in record.formulas]
    assert len(formulas) == 18
    for text in formulas:
        assert not DEFINED & set(re.findall(r"\\([A-Za-z@]+)", text)), text
        assert "@" not in text and "xspace" not in text and "ensuremath" not in text, text
        assert renderable(text) == text, text  # nothing KaTeX lacks, so nothing to rewrite


def test_references_are_numbered_as_latex_prints_them():
    by_id = {record.post.source_id: record for record in records()}
    assert "the basic type theory of Sections 1.1 and 1.2." in by_id["main.tex#type-theory"].post.body
    solutions = by_id["main.tex#solutions-to-chapter-1"]
    assert solutions.post.title == "Types and Paths › A Exercises › A.1 Solutions to Chapter 1"
    assert solutions.post.body.startswith("By Theorem 1.2 and (1.2), transport")
    paths = by_id["chapters/paths.tex#path-induction"]
    assert "see Lemma 1.1." in paths.post.body and "and (1.3) bounds a sum" in paths.post.body
    assert [(formula.anchor, formula.number) for formula in paths.formulas if formula.number] == [
        ("eq:path", "1.2"), ("eq:norm", "1.3")]
