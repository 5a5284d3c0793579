"""Ordering the scored candidates: the learned ranker by default, naming what raised each hit."""
import pytest

from searchapp.models import Formula

pytestmark = pytest.mark.django_db


def test_the_learned_ranker_orders_by_default_and_names_what_raised_each_hit(indexed, settings):
    assert (settings.MATHSEARCH_RANKER_DIR / "model.txt").is_file()  # the shipped ranker
    results = Formula.objects.search(r"\sin^2 x + \cos^2 x = 1", k=5)
    assert results.fusion == "learned" and results.hits[0].formula.latex == r"\sin^2 x + \cos^2 x = 1"
    assert all(a.score >= b.score for a, b in zip(results.hits, results.hits[1:]))
    assert all(value > 0 for hit in results.hits for _, value in hit.signals)
    assert any(hit.signals for hit in results.hits)
