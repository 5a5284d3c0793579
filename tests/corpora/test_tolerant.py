import pytest

from corpora.tolerant import MalformedFile, Problem, Read, data_lines, parse_keyed_lines


def test_data_lines_split_on_newline_only():
    assert list(data_lines("a\r\n\n  \nb\u2028c")) == [(1, "a"), (4, "b\u2028c")]


def test_keyed_lines_keep_the_first_of_a_repeated_key_and_skip_a_header():
    def parse(line):
        key, _, value = line.partition("=")
        if not value:
            raise ValueError("no value")
        return key, None, value

    read = parse_keyed_lines("head\na=1\nb\na=2\n", parse, skip_header=True)
    assert read.value == {"a": "1"}
    assert read.problems == [Problem(3, "no value"), Problem(4, "duplicate entry for a")]


def test_checked_turns_problems_into_one_error():
    assert Read({"a": 1}).checked("f.txt") == {"a": 1}
    with pytest.raises(MalformedFile, match=r"^f.txt: 2 malformed line\(s\); line 3: bad$") as caught:
        Read({}, [Problem(3, "bad"), Problem(5, "worse")]).checked("f.txt")
    assert caught.value.lines == [(3, "bad"), (5, "worse")]
