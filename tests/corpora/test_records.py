import pytest

from corpora import records
from corpora.latex_lines import latex_record
from corpora.records import IndexRecord, RecordError, SourceFormula, checked, read_lines
from corpora.tolerant import MalformedFile


@pytest.mark.parametrize("content, message", [
    pytest.param(b"caf\xe9\n", "not UTF-8 (byte 3 of the line)", id="latin-1"),
    pytest.param(b"a\x00b\n", "NUL character at column 2", id="nul"),
])
def test_lines_no_format_can_read_are_errors(write, content, message):
    assert list(read_lines(write(content), latex_record)) == [RecordError(1, message)]


def test_a_value_error_of_the_line_parser_is_the_line_error(write):
    def refuse(text, number):
        raise ValueError(f"no {text}")

    assert list(read_lines(write("a\n\nb\n"), refuse)) == [RecordError(1, "no a"), RecordError(3, "no b")]


@pytest.mark.parametrize("size", [pytest.param(11, id="just-over"), pytest.param(35, id="several-limits-over")])
def test_a_line_over_the_size_limit_is_an_error_and_the_next_lines_are_read(write, monkeypatch, size):
    monkeypatch.setattr(records, "MAX_RECORD_BYTES", 10)
    items = list(read_lines(write("x" * 10 + "\n" + "y" * size + "\nz^2\n" + "w" * size), latex_record))
    refused = "longer than 10 bytes; a line is refused above that"
    assert items[1:4:2] == [RecordError(2, refused), RecordError(4, refused)]  # the last one without its newline
    assert [item.post.body for item in items[0:3:2]] == ["x" * 10, "z^2"]


def test_skip_header(write):
    assert [r.line for r in read_lines(write("header\nx\n"), latex_record, skip_header=True)] == [2]


def test_checked_names_the_first_bad_line(write):
    path = write(b"x\n\xff\ny\n")
    with pytest.raises(MalformedFile, match=r"1 malformed line\(s\); line 2: not UTF-8"):
        checked(read_lines(path, latex_record), path)
    assert all(isinstance(r, IndexRecord) for r in checked(read_lines(write("x\ny\n"), latex_record), path))


def test_notation_must_be_known():
    assert SourceFormula("<math/>", "mathml", 0).notation == "mathml"
    with pytest.raises(ValueError, match="choose one of latex, mathml, slt"):
        SourceFormula("x", "tex", 0)


def test_a_job_keeps_a_record_error_s_kind_and_place_only_when_it_has_them():
    assert RecordError(3, "no a").to_json() == {"line": 3, "message": "no a"}
    assert RecordError(4, "a.tex:2: macro \\a …", "macro-loop", "a.tex", 2).to_json() == {
        "line": 4, "message": "a.tex:2: macro \\a …", "kind": "macro-loop", "file": "a.tex", "file_line": 2}
