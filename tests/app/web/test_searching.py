"""The search as the web layer runs it: unreadable queries as 400s, a formula's neighbours."""
import pytest

from searchapp.errors import ApiError
from searchapp.models import Formula
from searchapp.web.searching import neighbours, read_query

pytestmark = pytest.mark.django_db


def test_a_query_that_cannot_be_read_is_a_400_naming_its_notation_and_position():
    assert read_query("x^2", "latex").graphs.slt is not None
    with pytest.raises(ApiError) as raised:
        read_query(r"\frac{1}{", "latex")
    assert raised.value.code == "latex_unbalanced_braces" and raised.value.pos is not None


def test_a_formulas_neighbours_exclude_it_and_its_copies_in_other_corpora(index_file):
    index_file(corpus="one")
    index_file(corpus="two", name="two.txt")
    formula = Formula.objects.filter(latex="a^2 + b^2 = c^2").first()
    hits = neighbours(formula, k=3)
    assert len(hits) == 3 and all(hit.formula.visual_key != formula.visual_key for hit in hits)
    assert hits[0].formula.latex == "x^2 + y^2 = z^2"
