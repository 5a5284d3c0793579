"""Any input either parses or raises ParseError with a kind and a position, after bounded work, never anything else."""
import functools
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathparse import (
    FormulaGraphs,
    ParseError,
    parse,
    parse_latex,
    parse_mathml,
    parse_slt_string,
    to_slt_string,
    tree_from_slt_string,
)
from mathparse.errors import ERROR_KINDS, MAX_INPUT_CHARS, MAX_MARKUP_CHARS

ORDINARY_RATIO = 3
"""No input may cost more than this many times the work of parsing an ordinary formula as long as the limit allows
(`x+x+…`). Work is counted, not timed, so a loaded machine cannot fail the test: the nastiest linear inputs cost
1.0–1.5 times it, while a path worse than linear costs hundreds of times."""
LATEX_PIECES = [
    "x", "1", "2.5", "+", "=", "(", ")", "[", "]", "|", "\\|", "\\{", "\\}", "{", "}", "^", "_", "'", ",", "&", "\\\\",
    "\\frac", "\\sqrt", "\\left(", "\\right)", "\\left.", "\\right|", "\\begin{matrix}", "\\end{matrix}",
    "\\begin{cases}", "\\end{cases}", "\\begin{array}{cc}", "\\end{array}", "\\text{", "\\mathbb", "\\not", "\\over",
    "\\hat", "\\underbrace", "\\sum", "\\int", "d", "\\lim", "\\sin", "\\operatorname{", "\\big", "\\cr", "\\pmatrix{",
    "%", "&amp;", "&#39;", "\\foo", "\\topx", " ", "~", "\\,", "\\overset", "\\binom", "...", "\\", "$",
]
MATHML_PIECES = [
    "<math>", "</math>", "<mrow>", "</mrow>", "<mi>", "</mi>", "<mo>", "</mo>", "<mn>", "</mn>", "<mfrac>", "</mfrac>",
    "<msup>", "</msup>", "<msubsup>", "</msubsup>", "<mtable>", "<mtr>", "<mtd>", "</mtd>", "</mtr>", "</mtable>",
    "<mfenced open='['>", "</mfenced>", "<mroot>", "</mroot>", "<semantics>", "</semantics>", "x", "(", ")", "|", "2",
    "&amp;", "&lt;", "&nbsp;", "<!DOCTYPE m>", "<![CDATA[x]]>", "<!-- c -->", "<?pi x?>",
]
SLT_PIECES = ["[", "]", ",", "V!x", "N!2", "+", "a", "b", "w", "e", "n", "q", "&comma;", "&lsqb;", "M!()1x1", "!", " "]


def _parse_within_budget(parse, text: str) -> FormulaGraphs | None:
    work, result, error = _counted(parse, text)
    ordinary = _ordinary_work(parse)
    assert work <= ORDINARY_RATIO * ordinary, f"{work:,} steps, {work / ordinary:.1f} times an ordinary formula's"
    if error is not None:
        assert error.kind in ERROR_KINDS
        assert error.pos is None or 0 <= error.pos <= len(text)
        assert error.message
    if result is not None:
        slt_string = to_slt_string(result.slt)
        assert tree_from_slt_string(slt_string).kind == "slt"
        assert len(tree_from_slt_string(slt_string)) == len(result.slt)
        assert result.opt is not None or result.opt_error
    return result


def _counted(parse, text: str) -> tuple[int, FormulaGraphs | None, ParseError | None]:
    """The steps `parse(text)` takes (each Python call, line and loop round, as a tracer sees them), with its result
    or its error. A built-in's own loop (a regular expression's scan, a list's copy) is one step: what this counts is
    the parser's own paths."""
    steps = 0

    def count(frame, event, arg):
        nonlocal steps
        steps += 1
        return count  # and trace this call's lines

    outer = sys.gettrace()
    sys.settrace(count)
    try:
        result, error = parse(text), None
    except ParseError as caught:
        result, error = None, caught
    finally:
        sys.settrace(outer)
    return steps, result, error


def _ordinary(parse, share: float = 1.0) -> str:
    """The long sum `x+x+…` in `parse`'s notation, `share` of the way to its length limit."""
    latex = _near_limit("x+", int(MAX_INPUT_CHARS * share))
    return {
        parse_latex: latex,
        parse_mathml: "<math>" + _near_limit("<mi>x</mi><mo>+</mo>", int((MAX_MARKUP_CHARS - 13) * share)) + "</math>",
        parse_slt_string: to_slt_string(parse_latex(latex).slt),
    }[parse]


@functools.cache
def _ordinary_work(parse) -> int:
    return _counted(parse, _ordinary(parse))[0]


def _near_limit(piece: str, limit: int = MAX_INPUT_CHARS) -> str:
    return piece * ((limit - 1) // len(piece))


NASTY_LATEX = {
    "random-bytes": bytes(range(256)).decode("latin-1") * 30,
    "100k-chars": "x" * 100_000,
    "10k-nested-braces": "{" * 10_000 + "x" + "}" * 10_000,
    "nested-braces-below-limit": "{" * 4_000 + "x" + "}" * 4_000,
    "long-baseline": _near_limit("x"),
    "long-sum": _near_limit("x+"),
    "many-groups": _near_limit("()"),
    "many-bars": _near_limit("|"),
    "many-openers": _near_limit("("),
    "many-closers": _near_limit(")"),
    "many-dots": _near_limit("."),
    "many-commas-in-group": "(" + _near_limit("a,", MAX_INPUT_CHARS - 2) + ")",
    "many-cells": "\\begin{matrix}" + _near_limit("a&", MAX_INPUT_CHARS - 40) + "\\end{matrix}",
    "many-rows": _near_limit("\\\\"),
    "many-scripts": "x" + _near_limit("^x_y", MAX_INPUT_CHARS - 1),
    "unknown-macros": _near_limit("\\foo"),
    "unbalanced-left": _near_limit("\\left("),
    "balanced-left-deep": "\\left(" * 90 + "x" + "\\right)" * 90,
    "frac-chain": _near_limit("\\frac"),
    "sqrt-chain": _near_limit("\\sqrt") + "x",
    "not-chain": _near_limit("\\not"),
    "accent-chain": _near_limit("\\hat") + "x",
    "overset-chain": _near_limit("\\overset"),
    "nested-fractions": "\\frac{" * 99 + "x" + "}{y}" * 99,
    "nested-scripts": "x^{" * 120 + "y" + "}" * 120,
    "nested-environments": _near_limit("\\begin{matrix}"),
    "long-text": "\\text{" + "a" * (MAX_INPUT_CHARS - 10) + "}",
    "many-primes": "x" + "'" * (MAX_INPUT_CHARS - 1),
    "lone-backslash": "\\",
    "nul-and-controls": "x\x00\x01\x1b[31m\u202e\ufeffy",
    "surrogate-like": "\udcff\ud800x",
    "unknown-environment": "\\begin{tikzpicture}x\\end{tikzpicture}",
    "right-then-left": "\\right)x\\left(",
    "mixed": "\\left(\\frac{\\sqrt[3]{x^2}}{\\sum_{i=1}^n}\\right|" * 200,
}
NASTY_MATHML = {
    "random-bytes": bytes(range(256)).decode("latin-1") * 30,
    "deep-mrow": "<math>" + "<mrow>" * 5_000 + "</mrow>" * 5_000 + "</math>",
    "long-row": "<math>" + "<mi>x</mi>" * 3_900 + "</math>",
    "many-fences": "<math>" + "<mo>(</mo>" * 3_900 + "</math>",
    "billion-laughs": '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
                      + "".join(f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10 if i else "&lol;" * 10}">'
                                for i in range(10)) + "]><math><mi>&lol9;</mi></math>",
    "external-entity": '<!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><math><mi>&x;</mi></math>',
    "undefined-entity": "<math><mi>&nbsp;</mi></math>",
    "huge": "<math>" + "<mi>x</mi>" * 20_000 + "</math>",
    "empty": "",
}
NASTY_SLT = {
    "random-bytes": bytes(range(256)).decode("latin-1") * 30,
    "deep-next-chain": "[V!x" * 7_000 + "]" * 7_000,
    "deep-unclosed": "[V!x" * 9_000,
    "only-brackets": "[" * 30_000,
    "many-children": "[V!x" + ",a[N!1]" * 4_000 + "]",
    "long-matrix-label": "[M!" + "1" * 16_000 + "]",  # took 2.3 s in a regular expression that backtracked
    "huge": "[V!x]" * 20_000,
    "empty": "",
}


@pytest.mark.parametrize("parse", [parse_latex, parse_mathml, parse_slt_string])
def test_the_ordinary_formula_twice_as_long_costs_twice_the_work(parse):
    """The yardstick of the tests below is itself linear (a path worse than linear in every input is caught here)."""
    half, whole = (_counted(parse, _ordinary(parse, share))[0] for share in (0.5, 1.0))
    assert whole <= 2.1 * half


@pytest.mark.parametrize("text", [pytest.param(text, id=name) for name, text in NASTY_LATEX.items()])
def test_nasty_latex(text):
    _parse_within_budget(parse_latex, text)


@pytest.mark.parametrize("text", [pytest.param(text, id=name) for name, text in NASTY_MATHML.items()])
def test_nasty_mathml(text):
    assert _parse_within_budget(parse_mathml, text) is None or len(text) <= MAX_MARKUP_CHARS


@pytest.mark.parametrize("text", [pytest.param(text, id=name) for name, text in NASTY_SLT.items()])
def test_nasty_slt_strings(text):
    _parse_within_budget(parse_slt_string, text)


@pytest.mark.parametrize("text, kind", [
    pytest.param("x" * (MAX_INPUT_CHARS + 1), "too_long", id="too-long"),
    pytest.param("{" * 200 + "x" + "}" * 200, "too_deep", id="too-deep"),
    pytest.param("\\not" * 300 + "=", "too_deep", id="too-deep-without-braces"),
    pytest.param("", "empty", id="empty"),
])
def test_limits_have_their_own_kinds(text, kind):
    with pytest.raises(ParseError) as caught:
        parse_latex(text)
    assert caught.value.kind == kind


def test_a_matrix_of_more_rows_than_digits_can_say_is_an_slt_string_error():
    """Python refuses to read an integer of over 4,300 digits: a ValueError the API answered as a server error."""
    with pytest.raises(ParseError) as caught:
        parse_slt_string("[M!()" + "1" * 4_301 + "x1]")
    assert caught.value.kind == "invalid_slt_string" and "more than 6 digits" in caught.value.message


@pytest.mark.parametrize("notation, text", [
    pytest.param("latex", "(" * 400 + "x" + ")" * 400, id="fences-400-deep"),
    pytest.param("latex", "[" * 400 + "x" + "]" * 400, id="brackets-400-deep"),
])
def test_nesting_past_the_recursion_limit_is_a_parse_error_not_a_crash(notation, text):
    """An indexing batch counts it as one failed formula; a query answers 400."""
    with pytest.raises(ParseError) as caught:
        parse(text, notation)
    assert caught.value.kind == "too_deep"


PROPERTY_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY_SETTINGS
@given(st.text(max_size=300))
def test_any_text_as_latex(text):
    _parse_within_budget(parse_latex, text)


@PROPERTY_SETTINGS
@given(st.lists(st.sampled_from(LATEX_PIECES), max_size=60).map("".join))
def test_latex_like_text(text):
    _parse_within_budget(parse_latex, text)


@PROPERTY_SETTINGS
@given(st.text(max_size=300))
def test_any_text_as_mathml(text):
    _parse_within_budget(parse_mathml, text)


@PROPERTY_SETTINGS
@given(st.lists(st.sampled_from(MATHML_PIECES), max_size=60).map("".join))
def test_mathml_like_text(text):
    _parse_within_budget(parse_mathml, text)


@PROPERTY_SETTINGS
@given(st.text(max_size=300))
def test_any_text_as_slt_string(text):
    _parse_within_budget(parse_slt_string, text)


@PROPERTY_SETTINGS
@given(st.lists(st.sampled_from(SLT_PIECES), max_size=60).map("".join))
def test_slt_like_text(text):
    result = _parse_within_budget(parse_slt_string, text)
    if result is not None:  # whatever was accepted is written back exactly as it was read
        assert to_slt_string(result.slt) == text.strip()
