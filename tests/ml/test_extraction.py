import pytest

from ml.extraction import extract_formulas


@pytest.mark.parametrize("text, expected", [
    pytest.param("Let $x^2$ be", [("x^2", False)], id="inline-dollar"),
    pytest.param("so $$\\int_0^1 f$$ holds", [("\\int_0^1 f", True)], id="display-dollar"),
    pytest.param("a \\(a+b\\) and \\[c=d\\]", [("a+b", False), ("c=d", True)], id="paren-bracket"),
    pytest.param("costs \\$5 and $y$", [("y", False)], id="escaped-dollar"),
    pytest.param('<p>See <span class="math-container" id="q_1">$a &lt; b$</span></p>', [("a < b", False)],
                 id="math-container-unescaped"),
    pytest.param('<span class="math-container">$$x$$</span> and $z$', [("x", True), ("z", False)],
                 id="container-then-dollar"),
    pytest.param("no math here, $ alone", [], id="unclosed"),
    pytest.param("$$  $$", [], id="empty"),
])
def test_extract_formulas(text, expected):
    assert [(f.latex, f.display) for f in extract_formulas(text)] == expected


def test_positions_point_at_the_source():
    text = "First $a$ then $$b+c$$."
    found = extract_formulas(text)
    assert [text[f.start:f.end] for f in found] == ["$a$", "$$b+c$$"]
