"""Content MathML → OPT: LaTeXML's conventions mapped onto our label scheme; bad input fails cleanly."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corpora.formula_representations import read_formula_representations
from mathparse import parse_latex
from mathparse.content_mathml import MAX_DEPTH, parse_content_mathml
from mathparse.errors import ParseError
from mathparse.opt_nodes import serialize
from ml.evaluation.parser_agreement import OPT_FILE

SUP = '<csymbol cd="ambiguous">superscript</csymbol>'
SUB = '<csymbol cd="ambiguous">subscript</csymbol>'


def cmml(body: str) -> str:
    return f'<math xmlns="http://www.w3.org/1998/Math/MathML" encoding="MathML-Content">{body}</math>'


def opt(body: str) -> str:
    return serialize(parse_content_mathml(cmml(body)).root)


@pytest.mark.parametrize("body, expected", [
    pytest.param(f"<apply><plus/><apply>{SUP}<ci>𝑥</ci><apply><times/><cn>2</cn><ci>𝑦</ci></apply></apply>"
                 "<cn>1</cn></apply>", "U!plus(N!1,O!SUP(V!x,U!times(N!2,V!y)))", id="design-example"),
    pytest.param("<apply><times/><ci>𝑓</ci><ci>𝑁</ci></apply>", "F!f(V!N)", id="function-letter-product"),
    pytest.param(f"<apply><times/><ci>ℎ</ci><apply>{SUP}<ci>𝑥</ci><cn>2</cn></apply></apply>",
                 "U!times(O!SUP(V!x,N!2),V!h)", id="letter-before-power-stays-product"),
    pytest.param(f"<apply><times/><apply>{SUP}<ci>𝑓</ci><ci>′</ci></apply><ci>𝑥</ci></apply>",
                 "O!apply(O!SUP(F!f,V!′),V!x)", id="f-prime-of-x"),
    pytest.param("<apply><sin/><ci>𝜃</ci></apply>", "F!sin(V!θ)", id="sin"),
    pytest.param(f"<apply><apply>{SUB}<log/><cn>2</cn></apply><ci>𝑛</ci></apply>",
                 "O!apply(O!SUB(F!log,N!2),V!n)", id="log-base-2"),
    pytest.param(f"<apply><apply>{SUP}<apply>{SUB}<sum/><apply><eq/><ci>𝑖</ci><cn>1</cn></apply></apply>"
                 f"<ci>𝑛</ci></apply><apply>{SUB}<ci>𝑎</ci><ci>𝑖</ci></apply></apply>",
                 "O!sum(U!eq(N!1,V!i),V!n,O!SUB(V!a,V!i))", id="sum-with-script-limits"),
    pytest.param(f"<apply><apply>{SUP}<apply>{SUB}<int/><cn>0</cn></apply><infinity/></apply>"
                 '<apply><times/><ci>𝑓</ci><apply><csymbol cd="latexml">differential-d</csymbol><ci>𝑥</ci>'
                 "</apply></apply></apply>", "O!int(N!0,C!∞,V!f,V!x)", id="integral-drops-differential"),
    pytest.param("<apply><minus/><ci>𝑥</ci></apply>", "O!minus(V!x)", id="unary-minus"),
    pytest.param('<apply><ci>→</ci><ci>𝑛</ci><infinity/></apply>', "O!to(V!n,C!∞)", id="operator-as-ci"),
    pytest.param('<apply><csymbol cd="latexml">similar-to</csymbol><ci>𝑓</ci><ci>𝑔</ci></apply>',
                 "U!sim(V!f,V!g)", id="latexml-csymbol"),
    pytest.param('<interval closure="open"><ci>𝑎</ci><ci>𝑏</ci></interval>', "O!tuple(V!a,V!b)",
                 id="open-interval-is-tuple"),
    pytest.param('<interval closure="closed"><cn>0</cn><cn>1</cn></interval>', "O!interval-cc(N!0,N!1)",
                 id="closed-interval"),
    pytest.param('<apply><csymbol cd="latexml">delimited-[]</csymbol><ci>𝑥</ci></apply>', "V!x",
                 id="brackets-transparent"),
    pytest.param('<apply><neq/><csymbol cd="latexml">absent</csymbol><ci>𝑒</ci></apply>', "U!neq(V!e)",
                 id="absent-operand-dropped"),
    pytest.param("<apply><root/><degree><cn>3</cn></degree><ci>𝑥</ci></apply>", "O!root(V!x,N!3)",
                 id="root-index-last"),
    pytest.param("<ci>italic-ϵ</ci>", "V!ϵ", id="latexml-italic-name"),
    pytest.param("<ci>𝐰</ci>", "V!𝐰", id="bold-letter-kept"),
    pytest.param("<ci><mtext> if </mtext></ci>", "T!if", id="text"),
    pytest.param("<matrix><matrixrow><cn>1</cn><cn>2</cn></matrixrow></matrix>", "O!matrix(O!row(N!1,N!2))",
                 id="matrix"),
    pytest.param(f"<apply><apply>{SUB}<union/><ci>𝑛</ci></apply><ci>𝐴</ci></apply>", "O!bigcup(V!n,V!A)",
                 id="big-union"),
    pytest.param('<cerror><csymbol cd="ambiguous">fragments</csymbol><ci>𝑥</ci><lt/></cerror>',
                 "O!fragments(O!fragments,V!x,O!lt)", id="latexml-failure-kept-as-fragments"),
])
def test_content_mathml_to_opt(body, expected):
    assert opt(body) == expected


@pytest.mark.parametrize("latex, body", [
    pytest.param(r"\frac{k!}{N^k}", f"<apply><divide/><apply><factorial/><ci>𝑘</ci></apply>"
                 f"<apply>{SUP}<ci>𝑁</ci><ci>𝑘</ci></apply></apply>", id="fraction-factorial-power"),
    pytest.param(r"\lim_{n\to\infty} a_n", f"<apply><apply>{SUB}<limit/><apply><ci>→</ci><ci>𝑛</ci><infinity/>"
                 f"</apply></apply><apply>{SUB}<ci>𝑎</ci><ci>𝑛</ci></apply></apply>", id="limit"),
    pytest.param(r"f(x)=x(1-x)", "<apply><eq/><apply><times/><ci>𝑓</ci><ci>𝑥</ci></apply><apply><times/>"
                 "<ci>𝑥</ci><apply><minus/><cn>1</cn><ci>𝑥</ci></apply></apply></apply>", id="function-vs-product"),
    pytest.param(r"\int_0^1 x^2\,dx", f"<apply><apply>{SUP}<apply>{SUB}<int/><cn>0</cn></apply><cn>1</cn>"
                 f"</apply><apply><times/><apply>{SUP}<ci>𝑥</ci><cn>2</cn></apply><apply>"
                 '<csymbol cd="latexml">differential-d</csymbol><ci>𝑥</ci></apply></apply></apply>', id="integral"),
])
def test_same_tree_as_our_latex_side(latex, body):
    assert opt(body) == serialize(parse_latex(latex).opt.root)


@pytest.mark.parametrize("text, kind", [
    pytest.param("", "empty", id="empty"),
    pytest.param("<math><apply><plus/>", "invalid_mathml", id="unclosed"),
    pytest.param("not xml at all", "invalid_mathml", id="not-xml"),
    pytest.param('<!DOCTYPE m [<!ENTITY a "aaaa">]><math><ci>&a;</ci></math>', "invalid_mathml", id="entities"),
    pytest.param("<math></math>", "empty", id="no-content"),
    pytest.param("<math>" + "<apply><minus/>" * (MAX_DEPTH + 5) + "<ci>x</ci>" + "</apply>" * (MAX_DEPTH + 5)
                 + "</math>", "too_deep", id="too-deep"),
    pytest.param("<math>" + "x" * 300_000 + "</math>", "too_long", id="too-long"),
])
def test_bad_input_raises_parse_error(text, kind):
    with pytest.raises(ParseError) as info:
        parse_content_mathml(text)
    assert info.value.kind == kind


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet='<>/="apply ci cn plus times math csymbol xmlns&;#𝑥1', max_size=120))
def test_any_text_gives_tree_or_parse_error(text):
    try:
        tree = parse_content_mathml(text)
    except ParseError:
        return
    assert tree.kind == "opt"


def test_every_organiser_formula_converts(shared_data):
    formulas = read_formula_representations(shared_data / OPT_FILE).checked(shared_data / OPT_FILE)
    assert len(formulas) == 843
    trees = [parse_content_mathml(text) for text in formulas.values()]
    assert all(tree.kind == "opt" and len(tree) >= 1 for tree in trees)
