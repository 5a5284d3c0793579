import pytest

from corpora.documents import plan_upload
from tests.corpora.documents.conftest import errors, posts, problems

MAIN = r"""\documentclass{article}
\input{macros}
\begin{document}
Intro $\R$.
\input{chapters/one}
\include{chapters/two}
\subfile{chapters/three}
\end{document}
"""
PROJECT = {
    "main.tex": MAIN,
    "macros.tex": r"\newcommand{\R}{\mathbb{R}}",
    "chapters/one.tex": "\\section{One}\nIn one $\\R^1$.",
    "chapters/two.tex": "\\section{Two}\nIn two $x_2$.",
    "chapters/three.tex": "\\documentclass[../main.tex]{subfiles}\n\\newcommand{\\Q}{Q}\n\\begin{document}\n"
                          "\\section{Three}\nIn three $y_3$.\n\\end{document}\n",
    "figure.png": b"\x89PNG\r\n\x1a\n\x00\x00",
    "refs.bib": "@book{x, title={y}}",
}


@pytest.mark.parametrize("zip", [pytest.param(False, id="folder"), pytest.param(True, id="zip")])
def test_includes_are_read_in_place_and_not_indexed_twice(upload, zip):
    records = posts(upload(PROJECT, zip=zip))
    assert [(r.post.source_id, r.post.body) for r in records] == [
        ("main.tex", r"Intro $\mathbb{R}$."),
        ("chapters/one.tex#one", r"In one $\mathbb{R}^1$."),
        ("chapters/two.tex#two", "In two $x_2$."),
        ("chapters/three.tex#three", "In three $y_3$."),
    ]
    assert errors(upload(PROJECT, zip=zip, name="again")) == []


def test_input_finds_a_file_by_its_full_name_and_relative_to_the_including_file(upload):
    path = upload({"doc/main.tex": "\\documentclass{article}\\begin{document}\\input{parts/a.tex}\\end{document}",
                   "doc/parts/a.tex": "A $a$ \\input{b}", "doc/parts/b.tex": "B $b$"})
    [record] = posts(path)
    assert record.post.body == "A $a$ B $b$"


def test_a_missing_include_is_reported_and_the_rest_read(upload):
    path = upload({"main.tex": "\\documentclass{article}\\begin{document}$a$ \\input{gone} $b$\\end{document}"})
    assert problems(path) == [("include-missing", "main.tex", None)]
    assert errors(path) == [r"main.tex: \input{gone}: no such file in the upload"]
    assert [f.text for r in posts(path) for f in r.formulas] == ["a", "b"]


def test_an_include_cycle_is_reported(upload):
    path = upload({"main.tex": "\\documentclass{article}\\begin{document}\\input{a}\\end{document}",
                   "a.tex": "A \\input{b}", "b.tex": "B \\input{a}"})
    assert problems(path) == [("include-cycle", "b.tex", None)]
    assert errors(path) == [r"b.tex: \input{a}: include cycle a.tex → b.tex → a.tex"]
    assert [r.post.body for r in posts(path)] == ["A B"]


def test_a_local_package_gives_its_macros(upload):
    path = upload({"main.tex": "\\documentclass{article}\\usepackage{amsmath,mine}\\begin{document}$\\R$\\end{document}",
                   "mine.sty": "\\newcommand{\\R}{\\mathbb{R}}"})
    assert [f.text for r in posts(path) for f in r.formulas] == [r"\mathbb{R}"]
    assert errors(path) == []


def test_macros_of_a_main_do_not_leak_into_the_next_document(upload):
    path = upload({"a.tex": "\\documentclass{article}\\newcommand{\\R}{S}\\begin{document}$\\R$\\end{document}",
                   "b.tex": "\\documentclass{article}\\begin{document}$\\R$\\end{document}"})
    assert [f.text for r in posts(path) for f in r.formulas] == ["S", r"\R"]


def test_an_unreadable_include_is_reported_with_the_includer(upload):
    path = upload({"main.tex": "\\documentclass{article}\\begin{document}$a$\\input{bin}\\end{document}",
                   "bin.tex": b"\x00\x01"})
    assert problems(path) == [("include-unreadable", "main.tex", None)]
    assert errors(path) == [r"main.tex: \input{bin}: bin.tex: binary data (a NUL byte at 0), not text"]


VARIANT = "\\documentclass[{size}]{{book}}\n\\input{{macros}}\n\\begin{{document}}\n\\input{{main}}\n\\end{{document}}\n"
BOOK = {
    "macros.tex": "\\newcommand{\\R}{\\mathbb{R}}",
    "book-a4.tex": VARIANT.format(size="a4paper"), "book-ebook.tex": VARIANT.format(size="a5paper"),
    "book-letter.tex": VARIANT.format(size="letterpaper"),
    "main.tex": "\\chapter{Sets}\nIntro.\n\\input{chapters/one}\n\\input{chapters/two}\n",
    "chapters/one.tex": "\\section{One}\n$\\R^1$", "chapters/two.tex": "\\section{Two}\n$\\R^2$",
}


def test_paper_size_variants_of_one_body_are_one_document_read_once(upload):
    plan = plan_upload(upload(BOOK))
    assert [(planned.path, planned.covers) for planned in plan.documents] == [
        ("main.tex", ("book-a4.tex", "chapters/one.tex", "chapters/two.tex", "macros.tex", "main.tex"))]
    assert [skipped.file for skipped in plan.skipped] == ["book-ebook.tex", "book-letter.tex"]
    records = posts(upload(BOOK, name="again"))
    assert [r.post.source_id for r in records] == ["main.tex#sets", "chapters/one.tex#one", "chapters/two.tex#two"]
    assert [f.text for r in records for f in r.formulas] == [r"\mathbb{R}^1", r"\mathbb{R}^2"]


def test_mains_with_sections_of_their_own_over_a_shared_macro_file_are_each_read(upload):
    paper = "\\documentclass{{article}}\\input{{macros}}\\begin{{document}}\\section{{{name}}}$\\R$\\end{{document}}"
    plan = plan_upload(upload({"macros.tex": BOOK["macros.tex"], "a.tex": paper.format(name="A"),
                               "b.tex": paper.format(name="B")}))
    assert [planned.path for planned in plan.documents] == ["a.tex", "b.tex"] and plan.skipped == []


def test_identical_files_are_read_once(upload):
    note = "\\section{Copy}\n$$x^2$$"
    plan = plan_upload(upload({"v1/note.tex": note, "v2/note.tex": note, "other.tex": "$$y$$"}))
    assert [planned.path for planned in plan.documents] == ["other.tex", "v1/note.tex"]
    assert [(skipped.file, skipped.message) for skipped in plan.skipped] == [
        ("v2/note.tex", "identical to v1/note.tex: read once, as v1/note.tex")]


def test_a_document_records_the_digests_of_the_files_it_was_read_from(upload):
    [planned] = plan_upload(upload(PROJECT)).documents
    document = planned.read()
    assert sorted(document.files) == ["chapters/one.tex", "chapters/three.tex", "chapters/two.tex", "macros.tex",
                                      "main.tex"]
    assert all(len(digest) == 64 for digest in document.files.values())
