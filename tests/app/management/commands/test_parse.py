"""`manage.py parse`: one formula's trees, or a file of formulas summarised."""
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def parse(*args) -> str:
    out = StringIO()
    call_command("parse", *args, stdout=out)
    return out.getvalue()


def test_a_formula_prints_both_trees_or_them_as_json():
    lines = parse("x^2").splitlines()
    assert lines[0].startswith("SLT: ") and "x" in lines[0] and lines[1].startswith("OPT: ")
    data = json.loads(parse("x^2", "--json"))
    assert {"slt", "opt"} <= set(data) and data["slt"]["string"] == lines[0].removeprefix("SLT: ")


def test_a_formula_that_cannot_be_read_names_its_error_and_position():
    with pytest.raises(CommandError, match=r"^unbalanced_braces at position \d+: "):
        parse(r"\frac{1}{")


def test_a_file_is_summarised(tmp_path):
    path = tmp_path / "formulas.txt"
    path.write_text("x^2\n\\frac{a}{b}\n\\frac{1}{\n")
    report = json.loads(parse("--file", str(path), "--summary"))
    assert report["total"] == 3 and report["slt_ok"] == 2


@pytest.mark.parametrize("args, message", [
    pytest.param((), "give a formula, or --file F --summary", id="nothing"),
    pytest.param(("--file", "/nowhere/formulas.txt", "--summary"), "no such file: /nowhere/formulas.txt", id="no-file"),
])
def test_nothing_to_parse_is_a_clear_error(args, message):
    with pytest.raises(CommandError, match=f"^{message}$"):
        parse(*args)
