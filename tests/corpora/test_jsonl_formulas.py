import pytest

from corpora.jsonl_formulas import latex_field_record


def test_the_latex_field_is_the_formula():
    record = latex_field_record('{"latex": "a+b", "post": 1}', 4)
    assert [(f.text, f.notation) for f in record.formulas] == [("a+b", "latex")] and record.line == 4


@pytest.mark.parametrize("text, message", [
    pytest.param("{", "invalid JSON", id="broken"),
    pytest.param('{"tex": "x"}', "expected a JSON object with a 'latex' string", id="no-latex"),
    pytest.param('["x"]', "expected a JSON object with a 'latex' string", id="list"),
])
def test_bad_lines(text, message):
    with pytest.raises(ValueError, match=message):
        latex_field_record(text, 1)
