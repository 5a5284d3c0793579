"""The first stage: the corpus filter, the codebook probe of a large collection, several queries sharing one probe."""
import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from searchapp.models import Formula
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


def test_several_queries_share_one_first_stage_and_score_as_each_alone(index_file):
    """A question's formulas: one codebook probe and posting-list read per representation, one matrix read."""
    index_file(corpus="big")
    queries, failed = parse_queries([r"\sin^2 x + \cos^2 x = 1", "a^2 + b^2 = c^2", r"\frac{1}{"])
    assert [text for text, _ in failed] == [r"\frac{1}{"] and failed[0][1].pos is not None
    alone = [Formula.objects.scored_candidates(query, 2, "big") for query in queries]
    with CaptureQueriesContext(connection) as captured:
        together = Formula.objects.scored_candidates_of(queries, 2, "big")
    # ids-if-small, savepoint, corpus id, 2 × (ef_search, nearest centroids, posting lists), 2 × structure matches,
    # release, candidate matrices
    assert len(captured.captured_queries) == 13
    for one, batched in zip(alone, together):
        assert one.ids == batched.ids
        assert all(np.allclose(one.parts[name], batched.parts[name]) for name in ("slg", "opg"))
