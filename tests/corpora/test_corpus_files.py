import pytest

from corpora.corpus_files import read_formulas, read_records
from corpora.tolerant import MalformedFile


@pytest.mark.parametrize("format, content, text", [
    pytest.param("jsonl", '\ufeff{"id": 1, "body": "$x+1$"}\n', "x+1", id="jsonl"),
    pytest.param("latex", "\ufeffx+1\n", "x+1", id="latex"),
])
def test_a_byte_order_mark_is_not_part_of_the_first_record(write, format, content, text):
    [record] = read_records(write(content), format)
    assert record.formulas[0].text == text


def test_unknown_format_names_the_choices(write):
    with pytest.raises(ValueError, match="jsonl, arqmath, visual_ids, slt_tsv, latex"):
        list(read_records(write("x"), "csv"))


def test_read_formulas_gives_every_formula_in_order(write):
    path = write("5\t9\t[V!x]\n6\t9\t[V!y]\n")
    assert [(f.text, f.notation, f.position) for f in read_formulas(path, "slt_tsv")] == [
        ("[V!x]", "slt", 5), ("[V!y]", "slt", 6)]


def test_read_formulas_refuses_a_file_with_bad_lines(write):
    path = write("5\t9\t[V!x]\nbad\n7\n")
    with pytest.raises(MalformedFile, match=r"2 malformed line\(s\); line 2: expected 3 tab-separated columns"):
        read_formulas(path, "slt_tsv")
