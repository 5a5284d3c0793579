"""LaTeX tokenizer: offsets, entities, comments, and splitting of whitespace-stripped control words."""
import pytest

from mathparse.latex_tokens import tokenize


@pytest.mark.parametrize("source, expected", [
    pytest.param(r"x^2", [("char", "x", 0), ("^", "^", 1), ("char", "2", 2)], id="offsets"),
    pytest.param(r"a \, b", [("char", "a", 0), ("cmd", r"\,", 2), ("char", "b", 5)], id="control-symbol"),
    pytest.param(r"\topx", [("cmd", r"\top", 0), ("char", "x", 4)], id="known-prefix-split"),
    pytest.param(r"\frac12", [("cmd", r"\frac", 0), ("char", "1", 5), ("char", "2", 6)], id="digits-after-command"),
    pytest.param(r"\dx", [("char", "d", 1), ("char", "x", 2)], id="stripped-control-space"),
    pytest.param(r"\isprime", [("cmd", r"\isprime", 0)], id="unknown-macro-kept"),
    pytest.param(r"a\\b\cr c", [("char", "a", 0), ("row", "\\\\", 1), ("char", "b", 3), ("row", r"\cr", 4),
                                ("char", "c", 8)], id="row-separators"),
    pytest.param(r"a&amp;b&lt;c&#39;", [("char", "a", 0), ("&", "&", 1), ("char", "b", 6), ("char", "<", 7),
                                         ("char", "c", 11), ("'", "'", 12)], id="html-entities"),
    pytest.param("a%note\nb", [("char", "a", 0), ("char", "b", 7)], id="comment-to-newline"),
    pytest.param("a%b", [("char", "a", 0), ("char", "b", 2)], id="percent-without-newline-only-dropped"),
    pytest.param("v\\", [("char", "v", 0)], id="trailing-backslash-is-a-stripped-control-space"),
    pytest.param(r"\operatorname*{x}", [("cmd", r"\operatorname*", 0), ("{", "{", 14), ("char", "x", 15),
                                        ("}", "}", 16)], id="starred-command"),
])
def test_tokenize(source, expected):
    assert [tuple(token) for token in tokenize(source)] == expected
