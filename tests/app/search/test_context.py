"""Words around the formula: formulas whose posts say the same rank higher."""
import pytest

from tests.app.factories import INTEGRAL, PRODUCT

pytestmark = pytest.mark.django_db


def test_words_around_the_formula_lift_formulas_whose_posts_say_the_same(threads):
    from searchapp.models import Formula

    plain = Formula.objects.search(r"\int_0^1 x^2 \, dx", k=4)
    assert "context" not in plain.hits[0].parts
    worded = Formula.objects.search(r"\int_0^1 x^2 \, dx", k=4, context="prime numbers and Euclid's proof",
                                    context_weight=0.1)
    parts = {hit.formula.latex: hit.parts["context"] for hit in worded.hits}
    assert parts[PRODUCT] > parts[INTEGRAL]  # the product stands in Euclid's answer about primes
    assert worded.hits[0].formula.latex == PRODUCT != plain.hits[0].formula.latex
