from corpora.corpus_files import read_records
from corpora.visual_ids import VisualIdRecord, parse_visual_ids, read_visual_ids


def test_visual_id_file_prefers_latex_and_falls_back_to_slt(write):
    path = write("1\t[V!x]\tx\r\n2\t[N!2]\tNone\r\n3\tNone\tNone\r\n")
    first, second, third = read_records(path, "visual_ids")
    assert (first.formulas[0].notation, first.formulas[0].text) == ("latex", "x")
    assert (second.formulas[0].notation, second.formulas[0].text) == ("slt", "[N!2]")
    assert "neither" in third.message


def test_parse_visual_ids():
    text = "3\t[V!x,a[N!2]]\tNone\r\n14\tNone\tx^2\n15\tNone\tNone\n16\tx\n"
    read = parse_visual_ids(text)
    assert read.value == {"3": VisualIdRecord("3", "[V!x,a[N!2]]", None), "14": VisualIdRecord("14", None, "x^2")}
    assert [p.line_no for p in read.problems] == [3, 4]


def test_csv_quoted_latex_is_unquoted():
    read = parse_visual_ids('7\tNone\t"y^{""}=0"\n')
    assert read.value["7"].latex == 'y^{"}=0'


def test_real_visual_id_file(shared_data):
    read = read_visual_ids(shared_data / "arqmath" / "arqmath1-task2-judged-formulas" / "visual_id_file.tsv")
    records = read.value.values()
    assert read.problems == [] and len(records) == 9926
    assert sum(r.latex is not None for r in records) == 8483
    assert all(not (r.latex or r.slt).endswith("\r") for r in records)
    assert not any('""' in (r.latex or r.slt) for r in records)  # 19 CSV-quoted fields, unquoted
