import pytest

from tests.ml.data.documents.conftest import errors, posts

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
    assert errors(path) == [r"main.tex: \input{gone}: no such file in the upload"]
    assert [f.text for r in posts(path) for f in r.formulas] == ["a", "b"]


def test_an_include_cycle_is_reported(upload):
    path = upload({"main.tex": "\\documentclass{article}\\begin{document}\\input{a}\\end{document}",
                   "a.tex": "A \\input{b}", "b.tex": "B \\input{a}"})
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
    assert errors(path) == [r"main.tex: \input{bin}: bin.tex: binary data (a NUL byte at 0), not text"]
