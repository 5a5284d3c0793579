import pytest

from corpora.formula_representations import alttext, parse_formula_representations, read_formula_representations
from corpora.tolerant import Problem


@pytest.mark.parametrize("mathml, latex", [
    pytest.param('<math alttext="x^{2}+1"/>', "x^{2}+1", id="plain"),
    pytest.param('<math alttext="\\frac{1}{N^{% 4}}"/>', "\\frac{1}{N^{4}}", id="latexml-line-break"),
    pytest.param('<math alttext="100\\%"/>', "100\\%", id="escaped-percent-kept"),
    pytest.param('<math alttext="a&lt;b"/>', "a<b", id="xml-entities"),
    pytest.param("<math", "", id="broken-xml"),
])
def test_alttext(mathml, latex):
    assert alttext(mathml) == latex


def test_parse_skips_the_header_and_unquotes_the_markup():
    text = 'id\ttopic_id\tthread_id\ttype\tformula\nq_1\tA.1\t5\ttitle\t"<math alttext=""x""/>"\nq_2\tA.1\n'
    read = parse_formula_representations(text)
    assert read.value == {"q_1": '<math alttext="x"/>'}
    assert read.problems == [Problem(3, "expected 5 tab-separated columns, found 2")]


def test_real_files(shared_data):
    folder = shared_data / "arqmath" / "formula-representations"
    for name in ("Topics_2021_Formulas_SLT_V1.1.tsv", "Topics_2021_Formulas_OPT_V1.1.tsv"):
        read = read_formula_representations(folder / name)
        assert (len(read.value), read.problems) == (843, [])
