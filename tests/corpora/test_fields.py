import pytest

from corpora.fields import tsv_columns, tsv_fields, whitespace_fields


@pytest.mark.parametrize("line, fields", [
    pytest.param("a\tb", ["a", "b"], id="plain"),
    pytest.param('1\t"f""(0)"', ["1", 'f"(0)'], id="csv-quoted"),
    pytest.param('1\tf"(0)', ["1", 'f"(0)'], id="inner-quote-kept"),
    pytest.param("a\t\tb", ["a", "", "b"], id="empty-field"),
])
def test_tsv_fields(line, fields):
    assert tsv_fields(line) == fields


def test_broken_quoting_is_a_value_error():
    with pytest.raises(ValueError, match="bad CSV quoting"):
        tsv_fields('1\t"open')


def test_column_counts():
    with pytest.raises(ValueError, match="expected 3 tab-separated columns, found 2"):
        tsv_columns("a\tb", 3)
    with pytest.raises(ValueError, match=r"expected 2 fields \(a b\), found 3"):
        whitespace_fields("x y\tz", 2, "a b")
