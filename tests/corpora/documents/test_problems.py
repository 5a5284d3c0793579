import pytest

from corpora.documents.problems import KINDS, ReadProblem


@pytest.mark.parametrize("problem, shown", [
    pytest.param(ReadProblem("ch/a.tex", 12, "macro-loop", "macro \\a reads too much; left as written"),
                 "ch/a.tex:12: macro \\a reads too much; left as written", id="with-a-line"),
    pytest.param(ReadProblem("main.tex", None, "include-missing", "\\input{b}: no such file in the upload"),
                 "main.tex: \\input{b}: no such file in the upload", id="without-a-line"),
])
def test_a_problem_shows_as_one_line_naming_its_file_and_line(problem, shown):
    assert str(problem) == shown


def test_an_unknown_kind_is_refused_naming_the_kinds():
    with pytest.raises(ValueError, match="unknown problem kind 'oops'; choose one of runaway-argument, macro-loop"):
        ReadProblem("a.tex", 1, "oops", "x")  # type: ignore[arg-type]


def test_problems_are_values():
    first = ReadProblem("a.tex", 1, "runaway-argument", "x")
    assert first == ReadProblem("a.tex", 1, "runaway-argument", "x") and len({first, first}) == 1
    with pytest.raises(AttributeError):
        first.line = 2  # type: ignore[misc]


def test_the_kinds_are_a_small_stable_set():
    """The job report keeps them and people filter by them: renaming one is a change to announce."""
    assert KINDS == ("runaway-argument", "macro-loop", "macro-budget", "include-missing", "include-unreadable",
                     "include-cycle", "unread-delimiters", "unreadable", "section-refused")
