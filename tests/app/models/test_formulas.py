"""The formulas' QuerySet verbs: `search` is the formula search's way in, `nearest_to` a formula page's neighbours."""
import pytest

from searchapp.models import Formula
from searchapp.search import formula_search

pytestmark = pytest.mark.django_db


def test_the_search_verb_searches_its_own_queryset_as_the_pipeline_does(index_file):
    index_file(corpus="one")
    index_file([r"x^2 + y^2 = z^2", r"\frac{a}{b}"], corpus="two", name="two.txt")
    mine = Formula.objects.filter(corpus__name="two")
    found = mine.search("x^2 + y^2", k=5, fusion="f1")
    assert [hit.formula_id for hit in found.hits] == [
        hit.formula_id for hit in formula_search.search(mine, "x^2 + y^2", k=5, fusion="f1").hits]
    assert len(found.hits) == 2 and {hit.formula.corpus.name for hit in found.hits} == {"two"}


def test_a_formulas_neighbours_exclude_it_and_its_copies_in_other_corpora(index_file):
    index_file(corpus="one")
    index_file(corpus="two", name="two.txt")
    formula = Formula.objects.filter(latex="a^2 + b^2 = c^2").first()
    hits = Formula.objects.nearest_to(formula, k=3)
    assert len(hits) == 3 and all(hit.formula.visual_key != formula.visual_key for hit in hits)
    assert hits[0].formula.latex == "x^2 + y^2 = z^2"
