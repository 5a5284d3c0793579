import pytest

from corpora.corpus_files import read_records
from corpora.records import IndexRecord, RecordError


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


@pytest.mark.parametrize("line, parent", [
    pytest.param('{"id": "a1", "parent": "q1"}', "q1", id="string"),
    pytest.param('{"id": "a1", "parent": 12}', "12", id="integer"),
    pytest.param('{"id": "q1"}', "", id="none"),
    pytest.param('{"id": "q1", "parent": null}', "", id="null"),
])
def test_jsonl_posts_name_the_question_they_answer(write, line, parent):
    [record] = read_records(write(line + "\n"), "jsonl")
    assert record.post.parent == parent


def test_a_jsonl_parent_that_is_no_id_is_an_error(write):
    [item] = read_records(write('{"id": "a1", "parent": ["q1"]}\n'), "jsonl")
    assert isinstance(item, RecordError) and "'parent'" in item.message
