import json
import re
import zipfile

import pytest

from corpora import corpus_files
from corpora.corpus_files import read_records
from corpora.documents import archive, document_formulas, document_records, posts
from corpora.records import IndexRecord, RecordError
from tests.conftest import REPO
from tests.corpora.documents.conftest import errors

TEXLIVE = REPO / "var" / "texlive" / "science" / "usr" / "share" / "doc" / "texlive-doc"
GOOD = {"tex": "\\documentclass{article}\\begin{document}$x$\\end{document}", "md": "$x$", "html": "<p>$x$</p>",
        "ipynb": json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
                             "cells": [{"cell_type": "markdown", "metadata": {}, "source": "$x$"}]})}
READERS = [pytest.param(extension, id=extension) for extension in GOOD]


def test_the_format_is_registered():
    assert corpus_files.PAGE_READERS["documents"] is document_records


def test_records_are_numbered_over_the_job_errors_included(upload):
    path = upload({"a.md": "# A\n$a$\n## B\n$b$", "b.html": b"\x00", "c.md": "$c$"})
    items = list(read_records(path, "documents"))
    assert [(item.line, type(item).__name__) for item in items] == [
        (1, "IndexRecord"), (2, "IndexRecord"), (3, "RecordError"), (4, "IndexRecord")]
    assert (items[2].kind, items[2].file, items[2].file_line) == ("unreadable", "b.html", None)
    assert items[2].message == "b.html: binary data (a NUL byte at 0), not text"


def test_the_order_is_deterministic(upload):
    files = {f"{name}.md": f"$ {name} $" for name in "qwertyuiop"}
    first = [item.post.source_id for item in document_records(upload(files))]
    assert first == sorted(first)


@pytest.mark.parametrize("extension", READERS)
def test_a_single_file_is_read(upload, tmp_path, extension):
    file = tmp_path / f"doc.{extension}"
    file.write_text(GOOD[extension])
    [record] = document_records(file)
    assert (record.post.source_id, [f.text for f in record.formulas]) == (f"doc.{extension}", ["x"])


@pytest.mark.parametrize("extension", READERS)
@pytest.mark.parametrize("zip", [pytest.param(False, id="folder"), pytest.param(True, id="zip")])
def test_an_oversized_file_is_a_record_error_and_the_rest_goes_on(upload, monkeypatch, extension, zip):
    monkeypatch.setattr(archive, "MAX_DOCUMENT_BYTES", 300)
    path = upload({f"big.{extension}": GOOD[extension] + " " * 300, f"ok.{extension}": GOOD[extension]}, zip=zip)
    items = list(document_records(path))
    # LaTeX mains come before the files read alone, an unreadable one among them
    assert [type(item).__name__ for item in items] == ["RecordError", "IndexRecord"][::-1 if extension == "tex" else 1]
    items.sort(key=lambda item: isinstance(item, IndexRecord))
    assert (items[0].kind, items[0].file) == ("unreadable", f"big.{extension}")
    assert re.fullmatch(rf"big\.{extension}: .*a file is refused above 300", items[0].message)


@pytest.mark.parametrize("extension, data", [
    pytest.param("tex", b"\x00\x01binary", id="tex-binary"),
    pytest.param("md", "é".encode("latin-1"), id="md-not-utf-8"),
    pytest.param("html", "é".encode("latin-1"), id="html-not-utf-8"),
    pytest.param("ipynb", "é".encode("latin-1"), id="ipynb-not-utf-8"),
])
def test_an_undecodable_file_is_a_record_error(upload, extension, data):
    path = upload({f"bad.{extension}": data, f"ok.{extension}": GOOD[extension]})
    items = sorted(document_records(path), key=lambda item: isinstance(item, IndexRecord))
    assert [type(item).__name__ for item in items] == ["RecordError", "IndexRecord"]
    assert (items[0].kind, items[0].file, items[0].file_line) == ("unreadable", f"bad.{extension}", None)


def test_latin_1_latex_is_read(upload):
    path = upload({"a.tex": "\\documentclass{article}\\begin{document}caf\xe9 $x$\\end{document}".encode("latin-1")})
    [record] = document_records(path)
    assert record.post.body == "café $x$"


@pytest.mark.parametrize("extension", READERS)
def test_a_section_over_the_limit_is_a_record_error(upload, monkeypatch, extension):
    monkeypatch.setattr(posts, "MAX_SECTION_BYTES", 5)
    [item] = document_records(upload({f"a.{extension}": GOOD[extension].replace("$x$", "$x$ and more words")}))
    assert isinstance(item, RecordError) and (item.kind, item.file) == ("section-refused", f"a.{extension}")
    assert "a section is refused above 5" in item.message


def _zip(tmp_path, members, compression=zipfile.ZIP_DEFLATED):
    path = tmp_path / "up.zip"
    with zipfile.ZipFile(path, "w", compression) as zipped:
        for name, content in members:
            zipped.writestr(name, content)
    return path


@pytest.mark.parametrize("extension", READERS)
@pytest.mark.parametrize("member, message", [
    pytest.param("../evil", "would be written outside the folder", id="parent-path"),
    pytest.param("/abs/evil", "would be written outside the folder", id="absolute-path"),
])
def test_a_zip_with_a_member_leaving_the_folder_is_refused(tmp_path, extension, member, message):
    path = _zip(tmp_path, [(f"ok.{extension}", GOOD[extension]), (f"{member}.{extension}", GOOD[extension])])
    with pytest.raises(ValueError, match=f"up.zip: member .* {message}"):
        list(document_records(path))


@pytest.mark.parametrize("extension", READERS)
def test_a_zip_bomb_is_refused(tmp_path, extension):
    path = _zip(tmp_path, [(f"ok.{extension}", GOOD[extension]), (f"bomb.{extension}", " " * 3_000_000)])
    with pytest.raises(ValueError, match="a zip bomb"):
        list(document_records(path))


@pytest.mark.parametrize("extension", READERS)
def test_a_zip_with_too_many_members_is_refused(tmp_path, monkeypatch, extension):
    monkeypatch.setattr(archive, "MAX_ARCHIVE_MEMBERS", 2)
    path = _zip(tmp_path, [(f"{n}.{extension}", GOOD[extension]) for n in range(3)])
    with pytest.raises(ValueError, match="3 members; an archive is refused above 2"):
        list(document_records(path))


def test_an_upload_without_documents_is_a_value_error(upload):
    with pytest.raises(ValueError, match=r"upload: no document to read \(looked for .tex, .md"):
        list(document_records(upload({"a.png": b"\x89PNG", "b.bib": "@x{}", "c.sty": "\\def\\x{}"})))


def test_a_looping_macro_is_a_record_error_after_a_bounded_number_of_tokens(upload):
    path = upload({"a.tex": "\\documentclass{article}\\def\\a{\\a x}\\begin{document}$\\a$ and $y$\\end{document}"})
    items = list(document_records(path))
    assert isinstance(items[0], RecordError)
    assert (items[0].kind, items[0].file, items[0].file_line) == ("macro-loop", "a.tex", 1)
    assert items[0].message == "a.tex:1: macro \\a reads more than 20,000 tokens (it expands forever); left as written"
    assert [f.text for f in items[1].formulas] == ["\\operatorname{a}", "y"]  # KaTeX lacks \\a: see renderable


@pytest.mark.parametrize("extension, text", [
    pytest.param("tex", "\\documentclass{article}\\begin{document}\\section{S} Let $a$ and\n\\[ b \\]\\begin{align}c&=d"
                        "\\\\e\\end{align} and \\(f\\) $g$ \\(h\\).\\end{document}", id="tex"),
    pytest.param("md", "# T\n\nLet $a$ and\n\n$$\nb\n$$\n\nand \\(f\\) `$no$` $g$.", id="md"),
    pytest.param("html", "<p>Let $a$ and \\[b\\] <math><mi>c</mi></math> \\(f\\) $g$.</p>", id="html"),
])
def test_body_spans_line_up_with_the_formulas(upload, extension, text):
    records = list(document_records(upload({f"a.{extension}": text})))
    assert sum(len(record.formulas) for record in records) >= 4
    for record in records:
        assert isinstance(record, IndexRecord)
        for position, formula in enumerate(record.formulas):
            shown = record.post.body[formula.start:formula.end]
            assert formula.position == position
            assert shown.startswith("$") and shown.endswith("$")
            if formula.notation == "latex":
                assert shown.strip("$") == formula.text


def test_document_formulas_marks_display(upload):
    path = upload({"a.md": "Inline $a$\n\n$$b$$\n", "b.tex": "\\begin{equation}\\label{e}c\\end{equation}"})
    assert [(f.file, f.text, f.display, f.anchor) for f in document_formulas(path)] == [
        ("b.tex", "c", True, "e"), ("a.md", "a", False, ""), ("a.md", "b", True, "")]


@pytest.mark.skipif(not TEXLIVE.is_dir(), reason="make texlive-docs fetches TeX Live's documentation")
@pytest.mark.parametrize("package", ["latex/mhchem", "latex/pseudo", "latex/rbt-mathnotes", "latex/hepthesis"])
def test_real_texlive_documents_are_read(package):
    items = list(document_records(TEXLIVE / package))
    records = [item for item in items if isinstance(item, IndexRecord)]
    assert records and sum(len(record.formulas) for record in records) > 0
    assert len({record.post.source_id for record in records}) == len(records)
    for record in records:
        for formula in record.formulas:
            assert record.post.body[formula.start:formula.end].strip("$") == formula.text
    assert errors(TEXLIVE / package) == [item.message for item in items if isinstance(item, RecordError)]
