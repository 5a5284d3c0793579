import pytest

from corpora.documents.latex_expansion import expand
from corpora.documents.latex_includes import FILE_MARKER
from tests.corpora.documents.conftest import expanded, no_files, resolver


def test_includes_are_read_in_place_with_file_markers():
    expansion = expand(r"x \input{a} $\R$", "main.tex", resolver({"a.tex": r"\newcommand{\R}{\mathbb{R}}A"}))
    assert " ".join(expansion.text.split()) == r"x \mathsearchfile{a.tex}A\mathsearchfile{main.tex} $\mathbb{R}$"
    assert expansion.included == {"a.tex"}


@pytest.mark.parametrize("source, included", [
    pytest.param("\\input a \\relax", "a.tex", id="plain-tex-input"),
    pytest.param(r"\include{a}", "a.tex", id="include"),
    pytest.param(r"\import{parts/}{b}", "parts/b.tex", id="import-joins-folder-and-name"),
    pytest.param(r"\subimport{parts/}{b}", "parts/b.tex", id="subimport"),
])
def test_each_include_command_reads_the_file_it_names(source, included):
    expansion = expand(source, "main.tex", resolver({"a.tex": "A", "parts/b.tex": "B"}))
    assert expansion.included == {included}
    assert f"\\{FILE_MARKER}{{{included}}}" in expansion.text and expansion.problems == []


def test_a_package_of_the_upload_is_read_with_at_a_letter():
    package = r"\def\f@x{y}\newcommand{\f}{\f@x}\newcommand{\g}{\@ifstar{G}{g}}"
    assert expanded(r"\usepackage{mine}$\f \g* \g$", **{"mine.sty": package}) == (
        r"\mathsearchfile{mine.sty}\mathsearchfile{main.tex}$y G g$")


def test_a_system_package_is_not_read_and_not_a_problem():
    expansion = expand(r"\usepackage[utf8]{amsmath,mine} x", "main.tex", resolver({"mine.sty": "M"}))
    assert expansion.included == {"mine.sty"} and expansion.problems == []


def test_a_missing_include_is_a_problem_of_the_including_file():
    expansion = expand("x\n\\include{gone} y", "main.tex", no_files)
    [problem] = expansion.problems
    assert (problem.file, problem.line, problem.kind) == ("main.tex", None, "include-missing")
    assert str(problem) == r"main.tex: \include{gone}: no such file in the upload"
    assert " ".join(expansion.text.split()) == "x y"


def test_an_included_file_that_cannot_be_read_is_a_problem_of_its_own_kind():
    def unreadable(command, name, including):
        raise ValueError(f"{name}.tex: binary data (a NUL byte at 0), not text")

    [problem] = expand(r"\input{b}", "main.tex", unreadable).problems
    assert (problem.file, problem.line, problem.kind) == ("main.tex", None, "include-unreadable")
    assert problem.message == r"\input{b}: b.tex: binary data (a NUL byte at 0), not text"


def test_an_include_cycle_is_reported_by_the_file_that_closes_it_and_read_once():
    expansion = expand(r"\input{a}", "main.tex", resolver({"a.tex": r"A \input{b}", "b.tex": r"B \input{a}"}))
    [problem] = expansion.problems
    assert (problem.file, problem.line, problem.kind) == ("b.tex", None, "include-cycle")
    assert problem.message == r"\input{a}: include cycle a.tex → b.tex → a.tex"
    assert expansion.text.count("A") == 1 and expansion.text.count("B") == 1
