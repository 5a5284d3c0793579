"""The shared normalisation: canonical characters, named functions, plain-letter names, fonts, baseline repairs."""
import pytest

from mathparse.layout import Box
from mathparse.normalise import (
    attach_prescripts,
    canonical,
    join_digraphs,
    join_plain_names,
    join_upright_words,
    name_box,
    restyle,
    symbol_box,
    text_box,
)


def _letters(word: str) -> list[Box]:
    return [Box("V!" + char) for char in word]


def _labels(boxes: list[Box]) -> list[str]:
    return [box.label for box in boxes]


@pytest.mark.parametrize("text, expected", [
    pytest.param("−", "-", id="unicode-minus"),
    pytest.param("⩽", "≤", id="slanted-leq"),
    pytest.param("⟺", "⇔", id="long-iff"),
    pytest.param("⋯", "…", id="cdots"),
    pytest.param("•", "∙", id="bullet"),
    pytest.param("∼\u0338", "≁", id="combining-negation-composed"),
    pytest.param("a\u2061b\u00ad", "ab", id="invisible-format-characters-dropped"),
])
def test_canonical(text, expected):
    assert canonical(text) == expected


def test_symbol_box_fences_and_limits():
    assert (symbol_box("(").fence, symbol_box("∑").limits, symbol_box("x").label, symbol_box("⩾").label) == \
        ("(", True, "V!x", "≥")


@pytest.mark.parametrize("word, label, limits", [
    pytest.param("sin", "V!sin", False, id="function-is-a-variable"),
    pytest.param("lim", "lim", True, id="lim-is-bare-with-limits"),
    pytest.param("limsup", "lim sup", True, id="limsup-spelled-as-tangent"),
    pytest.param("lim sup", "lim sup", True, id="latexml-spelling"),
    pytest.param("max", "V!max", True, id="max-takes-limits"),
    pytest.param("Hom", "V!Hom", False, id="any-other-name"),
])
def test_name_box(word, label, limits):
    box = name_box(word)
    assert (box.label, box.limits) == (label, limits)


@pytest.mark.parametrize("text, label", [
    pytest.param("f", "V!f", id="single-letter-is-the-symbol"),
    pytest.param(" sin ", "V!sin", id="known-name"),
    pytest.param("mod", "mod", id="bare-operator-name"),
    pytest.param("𝐛", "V!b", id="styled-text-loses-its-style"),
    pytest.param("if ", "T!if", id="words-stay-text"),
])
def test_text_box(text, label):
    assert text_box(text).label == label


def test_text_box_of_nothing():
    assert text_box("  ") is None


@pytest.mark.parametrize("word, following, expected", [
    pytest.param("sin", "V!x", ["V!sin", "V!x"], id="name-before-argument"),
    pytest.param("sin", "+", ["V!s", "V!i", "V!n", "+"], id="no-argument"),
    pytest.param("sinx", "+", ["V!sin", "V!x", "+"], id="glued-argument"),
    pytest.param("nlogn", "-", ["V!n", "V!log", "V!n", "-"], id="glued-on-both-sides"),
    pytest.param("isin", "V!θ", ["V!i", "V!sin", "V!θ"], id="glued-factor-before"),
    pytest.param("cost", "M!()1x1", ["V!c", "V!o", "V!s", "V!t", "M!()1x1"], id="word-before-argument"),
    pytest.param("sinc", "M!()1x1", ["V!sinc", "M!()1x1"], id="longer-name-wins"),
    pytest.param("lnx", "+", ["V!l", "V!n", "V!x", "+"], id="short-names-never-glued"),
])
def test_join_plain_names(word, following, expected):
    assert _labels(join_plain_names(_letters(word) + [Box(following)])) == expected


def test_a_joined_name_takes_the_scripts_of_its_last_letter_as_limits():
    letters = _letters("lim")
    letters[-1].attach("b", [Box("V!n")])
    joined = join_plain_names(letters + [Box("V!a")])
    assert (joined[0].label, list(joined[0].rels)) == ("lim", ["u"])


def test_join_upright_words():
    assert _labels(join_upright_words(_letters("mul") + [Box("=")] + _letters("x"))) == ["V!mul", "=", "V!x"]


def test_join_digraphs_and_primes():
    boxes = join_digraphs([Box("V!a"), Box("<"), Box("="), Box("V!b"), Box("′")])
    assert _labels(boxes) == ["V!a", "≤", "V!b"] and boxes[-1].primes == 1


def test_prescripts_at_the_start_and_scripts_after_a_symbol():
    empty = Box("E!")
    empty.attach("a", [Box("N!14")])
    carbon = attach_prescripts([empty, Box("V!C")])
    assert _labels(carbon) == ["V!C"] and _labels(carbon[0].rels["c"]) == ["N!14"]
    late = Box("E!")
    late.attach("a", [Box("N!2")])
    squared = attach_prescripts([Box("V!x"), late])
    assert _labels(squared) == ["V!x"] and _labels(squared[0].rels["a"]) == ["N!2"]


def test_restyle_reaches_scripts():
    letter = Box("V!R")
    letter.attach("a", [Box("N!2")])
    restyle([letter], "DOUBLE-STRUCK")
    assert (letter.label, letter.rels["a"][0].label) == ("V!ℝ", "N!𝟚")
