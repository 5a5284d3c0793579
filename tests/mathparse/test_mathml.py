"""Presentation MathML → SLT, meeting the LaTeX path on the organisers' LaTeXML output."""
import pytest

from mathparse import ParseError, parse_latex, parse_mathml, to_slt_string
from ml.evaluation.parser_coverage import mathml_agreement

M = '<math xmlns="http://www.w3.org/1998/Math/MathML">{}</math>'


@pytest.mark.parametrize("mathml, latex", [
    pytest.param("<msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><mn>1</mn>", "x^2+1", id="superscript"),
    pytest.param("<mfrac><mi>a</mi><mi>b</mi></mfrac>", r"\frac ab", id="fraction"),
    pytest.param("<mroot><mi>x</mi><mn>3</mn></mroot>", r"\sqrt[3]{x}", id="root"),
    pytest.param("<mi>f</mi><mrow><mo>(</mo><mi>x</mi><mo>,</mo><mi>y</mi><mo>)</mo></mrow>", "f(x,y)", id="fences"),
    pytest.param("<mfenced><mi>x</mi><mi>y</mi></mfenced>", "(x,y)", id="mfenced"),
    pytest.param("<munderover><mo>∑</mo><mrow><mi>k</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><mi>k</mi>",
                 r"\sum_{k=1}^n k", id="sum"),
    pytest.param("<msubsup><mo>∫</mo><mn>0</mn><mn>1</mn></msubsup><mi>x</mi><mo>d</mo><mi>x</mi>",
                 r"\int_0^1 x\,dx", id="integral-as-subsup"),
    pytest.param("<msup><mi>f</mi><mo>′′</mo></msup>", "f''", id="primes"),
    pytest.param("<mi mathvariant='double-struck'>R</mi>", r"\mathbb R", id="mathvariant"),
    pytest.param("<mrow><mo>(</mo><mtable><mtr><mtd><mi>a</mi></mtd><mtd><mi>b</mi></mtd></mtr>"
                 "<mtr><mtd><mi>c</mi></mtd><mtd><mi>d</mi></mtd></mtr></mtable><mo>)</mo></mrow>",
                 r"\begin{pmatrix}a&b\\c&d\end{pmatrix}", id="matrix"),
    pytest.param("<semantics><mi>x</mi><annotation encoding='application/x-tex'>y</annotation></semantics>",
                 "x", id="annotations-ignored"),
])
def test_meets_latex(mathml, latex):
    assert to_slt_string(parse_mathml(M.format(mathml)).slt) == to_slt_string(parse_latex(latex).slt)


@pytest.mark.parametrize("mathml, kind", [
    pytest.param("<math><mi>x</mi>", "invalid_mathml", id="unclosed"),
    pytest.param("not xml", "invalid_mathml", id="not-xml"),
    pytest.param('<!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
                 "<math><mi>&b;</mi></math>", "invalid_mathml", id="billion-laughs"),
    pytest.param('<!DOCTYPE m SYSTEM "file:///etc/passwd"><math/>', "invalid_mathml", id="external-dtd"),
    pytest.param("<math><mspace/></math>", "empty", id="nothing-visible"),
    pytest.param("<math>" + "<mrow>" * 150 + "</mrow>" * 150 + "</math>", "too_deep", id="too-deep"),
])
def test_bad_mathml(mathml, kind):
    with pytest.raises(ParseError) as caught:
        parse_mathml(mathml)
    assert caught.value.kind == kind


def test_latexml_topic_formulas_agree_with_their_alttext(shared_data):
    report = mathml_agreement(shared_data)
    assert report["total"] == 843
    assert report["rate"] >= 0.98, report["disagreements"]  # 833 / 843 measured; the rest are LaTeXML's own renderings
