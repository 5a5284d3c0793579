import pytest

from searchapp.readers import IndexRecord, RecordError, read_records


@pytest.fixture
def write(tmp_path):
    def writer(content: bytes | str, name="corpus.txt"):
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        return path
    return writer


@pytest.mark.parametrize("format, content, text", [
    pytest.param("jsonl", '\ufeff{"id": 1, "body": "$x+1$"}\n', "x+1", id="jsonl"),
    pytest.param("latex", "\ufeffx+1\n", "x+1", id="latex"),
])
def test_a_byte_order_mark_is_not_part_of_the_first_record(write, format, content, text):
    [record] = read_records(write(content), format)
    assert record.formulas[0].text == text


def test_jsonl_posts_carry_their_formulas(write):
    path = write('{"id": 7, "title": "T", "body": "Let $x^2$ and $$y$$.", "url": "u", "tags": "<a><b>"}\n')
    [record] = read_records(path, "jsonl")
    assert record.post.source_id == "7"
    assert record.post.tags == ["a", "b"]
    assert [(f.text, f.position) for f in record.formulas] == [("x^2", 0), ("y", 1)]


@pytest.mark.parametrize("line, message", [
    pytest.param(b"not json", "invalid JSON", id="garbage"),
    pytest.param(b"[1, 2]", "expected a JSON object", id="array"),
    pytest.param(b'{"title": "no id"}', "missing or empty 'id'", id="no-id"),
    pytest.param(b'{"id": "1", "body": "caf\xe9"}', "not UTF-8", id="latin-1"),
    pytest.param(b'{"id": "1", "body": "trunc', "invalid JSON", id="truncated"),
])
def test_bad_jsonl_lines_become_errors_and_reading_goes_on(write, line, message):
    items = list(read_records(write(line + b'\n{"id": "ok"}\n'), "jsonl"))
    assert isinstance(items[0], RecordError) and message in items[0].message and items[0].line == 1
    assert isinstance(items[1], IndexRecord) and items[1].post.source_id == "ok"


def test_arqmath_tsv_skips_the_header_and_checks_columns(write):
    path = write("id\tpost_id\tthread_id\ttype\tvisual_id\tformula\n"
                 "10\t20\t30\tanswer\t40\tx^2\n"
                 "11\t21\ttoo-few\n")
    record, error = read_records(path, "arqmath")
    assert record.post.source_id == "20" and record.post.url.endswith("/a/20")
    assert record.formulas[0].text == "x^2" and record.formulas[0].position == 10
    assert "expected 6" in error.message and error.line == 3


def test_visual_id_file_prefers_latex_and_falls_back_to_slt(write):
    path = write("1\t[V!x]\tx\r\n2\t[N!2]\tNone\r\n3\tNone\tNone\r\n")
    first, second, third = read_records(path, "visual_ids")
    assert (first.formulas[0].notation, first.formulas[0].text) == ("latex", "x")
    assert (second.formulas[0].notation, second.formulas[0].text) == ("slt", "[N!2]")
    assert "neither" in third.message


def test_slt_tsv_reads_tangent_strings(write):
    record, error = read_records(write("5\t9\t[V!x,a[N!2]]\n6\tnine\t[V!y]\n"), "slt_tsv")
    assert (record.post.source_id, record.formulas[0].notation, record.formulas[0].position) == ("post-9", "slt", 5)
    assert "must be integers" in error.message


def test_latex_lines_skip_blank_lines(write):
    records = list(read_records(write("a+b\n\n  \nc\n"), "latex"))
    assert [(r.line, r.formulas[0].text) for r in records] == [(1, "a+b"), (4, "c")]


def test_unknown_format_names_the_choices(write):
    with pytest.raises(ValueError, match="jsonl, arqmath, visual_ids, slt_tsv, latex"):
        list(read_records(write("x"), "csv"))
