import pytest

from corpora.documents import document_records
from corpora.documents.long_formulas import LongFormula, set_aside_long_formulas, unreadable
from corpora.records import IndexRecord

LONG = "x+" * 10 + "y"  # 21 characters, over a limit of 20


@pytest.mark.parametrize("text, expected_text, expected", [
    pytest.param(f"a $${LONG}$$ b", r"a \mathsearchlongformula{0} b", [LongFormula(LONG, True)], id="dollars"),
    pytest.param(f"a \\[{LONG}\\] b", r"a \mathsearchlongformula{0} b", [LongFormula(LONG, True)], id="brackets"),
    pytest.param(f"a ${LONG}$ b", r"a \mathsearchlongformula{0} b", [LongFormula(LONG, False)], id="inline"),
    pytest.param(f"a \\({LONG}\\) b", r"a \mathsearchlongformula{0} b", [LongFormula(LONG, False)], id="parens"),
    pytest.param(f"\\begin{{align*}}{LONG}\\end{{align*}}.", r"\mathsearchlongformula{0}.",
                 [LongFormula(LONG, True)], id="environment"),
    pytest.param(f"$a$ and \\[{LONG}\\] then $b$", r"$a$ and \mathsearchlongformula{0} then $b$",
                 [LongFormula(LONG, True)], id="short-ones-stay"),
    pytest.param(f"\\[\\text{{$a$ or $b$}} {LONG}\\]", r"\mathsearchlongformula{0}",
                 [LongFormula(f"\\text{{$a$ or $b$}} {LONG}", True)], id="dollars-inside-display"),
    pytest.param(f"costs \\$5 and \\$6 {LONG} \\[a\\]", f"costs \\$5 and \\$6 {LONG} \\[a\\]", [],
                 id="escaped-dollars-are-text"),
    pytest.param(f"a stray $ then\n\n{LONG} and $b$", f"a stray $ then\n\n{LONG} and $b$", [],
                 id="a-paragraph-ends-an-inline-formula"),
    pytest.param(f"\\[{LONG}", f"\\[{LONG}", [], id="unclosed"),
])
def test_formulas_over_the_limit_are_set_aside(text, expected_text, expected):
    assert set_aside_long_formulas(text, limit=20) == (expected_text, expected)


DEEP = "\\frac{1}{" * 101 + "x" + "}" * 101


@pytest.mark.parametrize("latex, expected", [
    pytest.param("x" * 20, False, id="at-the-limit"),
    pytest.param("x" * 21, True, id="over-the-limit"),
    pytest.param("{" * 100 + "}" * 100, False, id="100-deep"),
    pytest.param(DEEP, True, id="101-deep"),
    pytest.param("{}" * 150, False, id="many-groups-side-by-side"),
    pytest.param("\\{" * 150, False, id="escaped-braces"),
])
def test_unreadable(latex, expected):
    assert unreadable(latex, limit=20 if len(latex) <= 21 else 10_000) is expected


def test_a_formula_nested_too_deep_is_set_aside():
    assert set_aside_long_formulas(f"a ${DEEP}$ b") == (r"a \mathsearchlongformula{0} b", [LongFormula(DEEP, False)])


def test_scanning_is_linear_in_unclosed_openers():
    """20,000 unclosed `\\(` are one pass, each token looked at once: nothing is set aside."""
    text = "\\(" * 20_000
    assert set_aside_long_formulas(text, limit=20) == (text, [])


@pytest.mark.parametrize("formula", [pytest.param("x+" * 3000 + "y", id="long"), pytest.param(DEEP, id="deep")])
@pytest.mark.parametrize("name, source", [
    pytest.param("main.tex", "\\documentclass{article}\\begin{document}\\section{A}\nWords \\[FORMULA\\] and "
                 "$a+b$.\n\\end{document}\n", id="latex"),
    pytest.param("note.md", "# A\n\nWords $$FORMULA$$ and $a+b$.\n", id="markdown"),
])
def test_a_formula_too_long_or_deep_to_parse_stays_in_its_post_for_indexing_to_report(tmp_path, name, source,
                                                                                       formula):
    """Not parsed for minutes, nor the whole file lost (RecursionError): the formula parser reports it."""
    (tmp_path / name).write_text(source.replace("FORMULA", formula))
    [record] = document_records(tmp_path)
    assert isinstance(record, IndexRecord)
    assert [formula.text for formula in record.formulas] == [formula, "a+b"]
    assert f"$${formula}$$" in record.post.body
