"""Query variables (NTCIR's qvar, Tangent-S's wildcard): every notation reads them as the same `W!name` node."""
import xml.etree.ElementTree as ET

import pytest

from mathparse import ParseError, parse, to_slt_string
from mathparse.query_variables import STAND_IN, for_embedding, match
from mathparse.slt_latex import slt_to_latex
from mathparse.tree import Tree, is_query_variable

F_OF_X0 = "[V!f[M!()1x1,w[V!z]],b[W!x0]]"
PYTHAGORAS = r"\qvar{a}^2+\qvar{b}^2=\qvar{c}^2"


@pytest.mark.parametrize("text, notation", [
    (r"f_{\qvar{x0}}(z)", "latex"),
    (r"f_{\qvar{ x0 }}(z)", "latex"),
    (r"f_{\qvar@construct{x0}}(z)", "latex"),  # LaTeXML, NTCIR-11's topics
    (r"f_{\text{?{x0}}}(z)", "latex"),  # NTCIR-11's other spelling
    ('<math xmlns:mws="http://search.mathweb.org/ns"><msub><mi>f</mi><mws:qvar name="x&#10;0"/></msub>'
     "<mo>(</mo><mi>z</mi><mo>)</mo></math>", "mathml"),
    ("<math><msub><mi>f</mi><mi>qvar_x0</mi></msub><mo>(</mo><mi>z</mi><mo>)</mo></math>", "mathml"),
    (F_OF_X0, "slt"),
])
def test_each_notation_reads_a_query_variable_as_one_named_node(text, notation):
    assert to_slt_string(parse(text, notation).slt) == F_OF_X0


@pytest.mark.parametrize("latex, label", [
    (r"x=\qvar@construct{missing}", "T!missing"),  # ARQMath's LaTeXML marked stray characters so
    (r"x=\qvar@construct{?}", "T!?"),
    (r"x=\text{?}", "T!?"),
])
def test_stray_characters_latexml_marked_stay_text(latex, label):
    labels = parse(latex, "latex").slt.labels
    assert label in labels and not any(is_query_variable(other) for other in labels)


@pytest.mark.parametrize("latex", [r"x + \qvar", r"x + \qvar{}", r"\qvar{a{b}}"])
def test_a_query_variable_needs_a_plain_name(latex):
    with pytest.raises(ParseError, match=r"\\qvar needs a name") as raised:
        parse(latex, "latex")
    assert raised.value.kind == "missing_argument" and raised.value.pos == latex.index(r"\qvar")


@pytest.mark.parametrize("query, spelled_out", [
    (r"x^{?a}", r"x^{\qvar{a}}"),
    (r"?a+?b", r"\qvar{a}+\qvar{b}"),
    (r"\frac{1}{?x0}", r"\frac{1}{\qvar{x0}}"),
    (r"?ab", r"\qvar{a}b"),  # a letter and its digits: letters side by side are a product
    (r"x^?n", r"x^{\qvar{n}}"),
    (r"\text{?} + ?y", r"\text{?} + \qvar{y}"),  # text stays text
])
def test_a_query_may_write_a_variable_with_a_question_mark(query, spelled_out):
    assert parse(query, "latex", query=True).slt == parse(spelled_out, "latex").slt


def test_a_corpus_formulas_question_mark_is_a_symbol():
    assert "?" in parse(r"x^{?a}", "latex").slt.labels


@pytest.mark.parametrize("query", [r"f\circ g = g \circ f?", "x = ?", "?1 + x", r"?\alpha", "? a"])
def test_a_question_mark_without_a_letter_after_it_is_the_symbol_it_is_in_the_corpus(query):
    """ARQMath-1 topic B.37 ends so: a query copied from a question must not fail on its question mark."""
    assert parse(query, "latex", query=True).slt == parse(query, "latex").slt


def test_the_operator_tree_keeps_the_variable_as_an_operand_and_latex_reads_back():
    graphs = parse(r"\frac{\qvar{a}}{\qvar{b}} + \qvar{a}", "latex")
    assert [label for label in graphs.opt.labels if is_query_variable(label)] == ["W!a", "W!b", "W!a"]
    assert slt_to_latex(graphs.slt) == r"\frac{\qvar{a}}{\qvar{b}} + \qvar{a}"
    assert parse(slt_to_latex(graphs.slt), "latex").slt == graphs.slt


def test_ntcir11_topics_read_alike_from_their_latex_and_their_mathml(shared_data):
    """All 100 NTCIR-11 Wikipedia topics parse in both notations; a third hold query variables, named alike."""
    ns = {"t": "http://ntcir-math.nii.ac.jp/", "m": "http://www.w3.org/1998/Math/MathML"}
    root = ET.parse(shared_data / "ntcir11-wiki/Ntcir11MathWikipediaTopicsParticipants.xml").getroot()
    formulas = list(root.iter(f"{{{ns['t']}}}formula"))
    agree = with_variables = 0
    for formula in formulas:
        latex = formula.find(".//m:annotation[@encoding='application/x-tex']", ns).text
        math = ET.Element(f"{{{ns['m']}}}math")
        math.extend(formula.find(".//m:annotation-xml[@encoding='MathML-Presentation']", ns))
        names = [sorted({label for label in parse(source, notation).slt.labels if is_query_variable(label)})
                 for source, notation in ((latex, "latex"), (ET.tostring(math, encoding="unicode"), "mathml"))]
        with_variables += bool(names[0])
        agree += names[0] == names[1]
    assert len(formulas) == 100 and with_variables >= 33 and agree >= 98


def bindings(query: str, candidate: str) -> dict[str, str] | None:
    bound = match(parse(query, "latex").slt, parse(candidate, "latex").slt)
    return None if bound is None else {name: slt_to_latex(Tree(node, "slt")) for name, node in bound.items()}


@pytest.mark.parametrize("query, candidate, expected", [
    (r"\frac{1}{\qvar{x}}", r"\frac{1}{n^2}", {"x": "n^{2}"}),
    (r"\frac{1}{\qvar{x}}", r"\sum_{n=1}^{\infty} \frac{1}{n^2+1} = c", {"x": "n^{2} + 1"}),  # inside, and going on
    (r"x^{\qvar{n}}", r"y = x^{2k+1}", {"n": "2 k + 1"}),
    (r"\frac{\qvar{a}}{2}", r"\frac{x+1}{2}", {"a": "x + 1"}),  # several symbols, to the baseline's end
    (r"\qvar{a} + 1", r"y = 2x + 1", {"a": "2 x"}),  # beside an operator, an operand: not x, nor y = 2x
    (r"\qvar{a} + 1 = 0", r"2x - y + 1 = 0", {"a": "2 x - y"}),  # read left to right: (2x - y) + 1
    (r"\qvar{a} \cdot 2", r"x + y \cdot 2", {"a": "y"}),  # · binds tighter than +
    (r"1 + \qvar{b}", r"1 + x = 3", {"b": "x"}),  # a right operand ends at an operator binding as loosely
    (r"1 + \qvar{b}", r"1 + 2x \cdot y - 4", {"b": r"2 x \cdot y"}),
    (r"x + \qvar{b}", r"x + -y", {"b": "- y"}),  # a sign starts an operand
    (r"\qvar{a} = \qvar{b}", r"f(x) = 2x + 1", {"a": r"f \left( x \right)", "b": "2 x + 1"}),
    (r"2\qvar{a} + 1", r"2xy + 1", {"a": "x y"}),  # after a symbol, up to what follows it in the query
    (r"\qvar{a} + 1", r"2x + 1 = y + 1", {"a": "y"}),  # of several places, the one binding fewest symbols
    (r"\qvar{a} + \qvar{a}", r"2x + 2x", {"a": "2 x"}),
    (r"\qvar{a} + \qvar{b}", r"2x + 3x", {"a": "2 x", "b": "3 x"}),
    (r"\qvar{a} + \qvar{a}", r"2x + 3x", None),  # one name, one sub-expression
    (r"x^{\qvar{n}} + 1", r"x + 1", None),  # the superscript must be there
    (r"x + 1", r"x^2 + 1", None),  # and no script the query lacks
    (r"\frac{1}{\qvar{x}}", r"\frac{2}{n}", None),
    (r"\sqrt{\qvar{x}}", r"\sqrt[3]{y}", None),
    (r"x^{2}", r"x^{2k}", None),  # a part is the query's whole, as in \frac{1}{2x}
    (r"\frac{1}{2}", r"\frac{1}{2x}", None),
    (r"x + \qvar{b}", r"2x + y", None),  # the query lies over a sub-expression: 2 multiplies x first
    (r"\qvar{a} + 1", r"y + 1 \cdot 2", None),  # and · takes the 1 first
    (r"-\qvar{a}", r"x - y", None),  # a sign in the query, an operator in the formula
    (r"-\qvar{a}", r"-x \cdot y + 1", {"a": r"x \cdot y"}),  # a sign takes the product after it
    (PYTHAGORAS, r"3^2+4^2=5^2", {"a": "3", "b": "4", "c": "5"}),  # a variable with scripts is their base
    (PYTHAGORAS, r"x^2+y^2=z^2", {"a": "x", "b": "y", "c": "z"}),
    (PYTHAGORAS, r"(x+1)^2+y^2=z^2", {"a": r"\left( x + 1 \right)", "b": "y", "c": "z"}),  # a fence is one symbol
    (PYTHAGORAS, r"a^2+ab+b^2=d^2", None),  # not a = a^2 + ab: no base of a square
    (PYTHAGORAS, r"a^2+b^2+c^2=d^2+e^2+f^2", None),  # b^2 + c^2 = d^2 lies over no sub-expression
    (PYTHAGORAS, r"2x^2+y^2=z^2", None),
    (PYTHAGORAS, r"x_i^2+y^2=z^2", None),  # the scripts of x are not the variable's
    (PYTHAGORAS, r"x^2+y^3=z^2", None),
    (r"\qvar{a}^2 + \qvar{a}^2", r"x^2 + x^2 = 2x^2", {"a": "x"}),
    (r"\qvar{a}^2 + \qvar{a}^2", r"x^2 + y^2", None),
    (r"(\qvar{a}, y)", r"f(x+1, y) = 0", {"a": "x + 1"}),  # an element of a fence, the next one the query's
    (r"(\qvar{a}, \qvar{b})", r"(x, y, z)", None),
    (r"\left(\qvar{a}\right)", r"(x, y)", None),  # one operand, not a fence's elements
    (r"x^{\qvar{n}}", r"x''", None),  # primes are no exponent
    (r"\overset{\qvar{m}}{x}", r"\hat{x}", None),  # nor is an accent's mark anything a variable stands for
])
def test_a_pattern_matches_where_the_query_occurs_whatever_is_in_its_variables_places(query, candidate, expected):
    assert bindings(query, candidate) == expected


def test_the_encoders_see_a_stand_in_where_a_variable_is_and_the_same_tree_without_one():
    graphs = parse(r"f_{\qvar{n}}(z)", "latex")
    embedded = for_embedding(graphs)
    assert embedded.slt.labels == [STAND_IN if is_query_variable(label) else label for label in graphs.slt.labels]
    assert [label for label in embedded.opt.labels if label == STAND_IN] == [STAND_IN]
    plain = parse("f_n(z)", "latex")
    assert for_embedding(plain) is plain
