"""The first stage: the corpus filter, the codebook probe of a large collection, a small collection scored whole."""
import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from searchapp.models import Formula
from searchapp.search import candidates
from searchapp.search.query import parse_queries

pytestmark = pytest.mark.django_db


def test_corpus_filter(index_file):
    index_file(["x^2"], corpus="one")
    index_file(["x^3"], corpus="two", name="two.txt")
    hits = Formula.objects.search("x^2", k=10, corpus="two").hits
    assert [hit.formula.corpus.name for hit in hits] == ["two"]


def test_a_collection_larger_than_the_shortlist_is_searched_through_the_codebook(index_file):
    index_file(corpus="big")
    index_file(["w^5 - 1"], corpus="other", name="other.txt")
    results = Formula.objects.search(r"\sin^2 x + \cos^2 x = 1", k=2, shortlist_size=2, corpus="big")
    assert results.hits[0].formula.latex == r"\sin^2 x + \cos^2 x = 1"
    assert 2 <= results.candidates <= 4 < Formula.objects.filter(corpus__name="big").count()
    assert {hit.formula.corpus.name for hit in results.hits} == {"big"}


def test_a_small_collection_is_scored_completely(indexed):
    assert Formula.objects.search("p^2", k=10).candidates == Formula.objects.count()


def test_a_sub_expression_most_formulas_share_selects_no_structure_matches(index_file, monkeypatch):
    """`x^2` is a stop word of the structure channel once more than COMMON_SUBTREE formulas share it: a query's
    matches are then those sharing its rarer sub-expressions, as the planner's statistics tell them apart."""
    index_file([f"x^{{2}} + {n}" for n in range(40)] + [r"\frac{x^{2}}{7} + 9"], corpus="common")
    (query,), _ = parse_queries([r"\frac{x^{2}}{7} + 9"])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE searchapp_formula")
        monkeypatch.setattr(candidates, "COMMON_SUBTREE", 20)
        common = candidates.common_subtrees(cursor)
        every = candidates.structure_matches(cursor, query.terms, 200, None, set())
        rare = candidates.structure_matches(cursor, query.terms, 200, None, common)
        monkeypatch.setattr(candidates, "COMMON_SUBTREE", 100)
        assert candidates.common_subtrees(cursor) == set()  # nothing is shared by more than 100 formulas
    exact = Formula.objects.get(latex=r"\frac{x^{2}}{7} + 9").pk
    assert common and len(every) == 41  # sharing x^2, every formula joins
    assert rare == [exact]  # by its rare sub-expressions, only the formula itself


def test_equal_node_vectors_are_looked_up_once_and_each_row_gets_their_centroids():
    """The codebook is loaded for the session (tests/conftest.py); each row as alone, in the order of the rows."""
    vectors = np.random.default_rng(0).standard_normal((3, 64)).astype(np.float32)
    rows = vectors[[0, 1, 0, 2, 1]]
    with CaptureQueriesContext(connection) as captured, connection.cursor() as cursor:
        together = candidates.nearest_centroids(cursor, "slg", rows, 4)
        alone = [candidates.nearest_centroids(cursor, "slg", vectors[[i]], 4) for i in range(3)]
    assert captured.captured_queries[1]["sql"].count('"[') == 3  # the distinct vectors sent, one literal each
    expected = [(row, centroid, cosine) for row, i in enumerate([0, 1, 0, 2, 1]) for _, centroid, cosine in alone[i]]
    assert together == expected and len(together) == 5 * 4
