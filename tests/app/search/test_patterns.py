"""Pattern search: formulas holding a pattern of query variables rank first and say what each variable stands for."""
import pytest

from searchapp.models import Formula

pytestmark = pytest.mark.django_db


def test_formulas_holding_a_pattern_rank_first_and_say_what_its_variables_stand_for(index_file):
    index_file([r"\frac{1}{n^2}", r"\frac{1}{x+y} = z", r"\frac{2}{n^2}", r"\sqrt{n^2}", r"\frac{1}{2}+\frac{1}{3}"],
               corpus="fractions")
    hits = Formula.objects.search(r"\frac{1}{\qvar{x}} + \frac{1}{\qvar{y}}", k=5).hits
    assert (hits[0].formula.latex, hits[0].bindings) == (r"\frac{1}{2}+\frac{1}{3}", [("x", "2"), ("y", "3")])
    assert all(hit.bindings is None for hit in hits[1:])
    hits = Formula.objects.search(r"\frac{1}{\qvar{x}}", k=5).hits
    assert {(hit.formula.latex, tuple(hit.bindings)) for hit in hits[:3]} == {
        (r"\frac{1}{n^2}", (("x", "n^{2}"),)), (r"\frac{1}{x+y} = z", (("x", "x + y"),)),
        (r"\frac{1}{2}+\frac{1}{3}", (("x", "2"),))}
    assert [hit.bindings for hit in hits[3:]] == [None, None]
    paged = [Formula.objects.search(r"\frac{1}{\qvar{x}}", k=1, offset=offset).hits[0] for offset in range(5)]
    assert [hit.formula_id for hit in paged] == [hit.formula_id for hit in hits]  # each page reads only what it needs
    assert all(hit.alignment["slg"].query_labels[i] != "W!x" for hit in hits for i, _, _ in hit.alignment["slg"].pairs)
    same = Formula.objects.search(r"\frac{1}{\qvar{x}} + \frac{1}{\qvar{x}}", k=5).hits
    assert all(hit.bindings is None for hit in same)  # one name, one sub-expression: 2 and 3 differ


def test_a_pattern_labels_only_the_formulas_its_bindings_give_back(index_file):
    index_file([r"a^2+ab+b^2=d^2", r"a^2+b^2+c^2=d^2+e^2+f^2", r"3^2+4^2=5^2", r"x^2+y^2=z^2", r"2x^2+y^2=z^2"],
               corpus="squares")
    hits = Formula.objects.search(r"\qvar{a}^2+\qvar{b}^2=\qvar{c}^2", k=5).hits
    assert {hit.formula.latex: hit.bindings for hit in hits} == {
        r"3^2+4^2=5^2": [("a", "3"), ("b", "4"), ("c", "5")], r"x^2+y^2=z^2": [("a", "x"), ("b", "y"), ("c", "z")],
        r"a^2+ab+b^2=d^2": None, r"a^2+b^2+c^2=d^2+e^2+f^2": None, r"2x^2+y^2=z^2": None}
    assert {hit.formula.latex for hit in hits[:2]} == {r"3^2+4^2=5^2", r"x^2+y^2=z^2"}  # the matches rank first
    typed = Formula.objects.search("?a^2+?b^2=?c^2", k=5).hits  # as Approach0 and zbMATH users write them
    assert [(hit.formula_id, hit.bindings) for hit in typed] == [(hit.formula_id, hit.bindings) for hit in hits]
