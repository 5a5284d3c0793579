"""The formula search as one pipeline (`searchapp.search.formula_search`): how a query is read, how many times a
whole search reads the database, and its first stage and exact scoring shared by several queries."""
import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from mathparse import ParseError
from searchapp.models import Formula
from searchapp.search import formula_search
from searchapp.search.query import parse_queries, parse_query
from searchapp.web.presenters import present

pytestmark = pytest.mark.django_db


def test_a_search_reads_the_database_a_pinned_number_of_times(index_file):
    """Parse and embed once, read the candidates' matrices once and the hits' rows once, their posts once."""
    index_file(corpus="big")
    query = parse_query(r"\sin^2 x + \cos^2 x = 1")
    with CaptureQueriesContext(connection) as captured:
        results = formula_search.search(Formula.objects.all(), query, k=5, shortlist_size=2, corpus="big")
        present(results)
    statements = [q["sql"].split()[0].upper() for q in captured.captured_queries]
    # ids-if-small, savepoint, corpus id, 2 × (ef_search, nearest centroids, posting lists), common sub-expressions,
    # structure matches, release, candidate matrices, the corpus's installed ranker, people's feedback on the query and
    # its logged pages, hit rows, hit posts, hit occurrence counts
    assert len(statements) == 19, statements
    assert 1 <= len(results.hits) == min(5, results.candidates)


def test_a_search_says_where_its_time_went_stage_by_stage(indexed):
    results = formula_search.search(Formula.objects.all(), r"e^{i\pi} + 1 = 0", k=3, shortlist_size=2)
    assert list(results.stages_ms) == ["read", "first_stage", "exact", "order", "people", "hits"]
    assert all(ms >= 0 for ms in results.stages_ms.values())
    assert sum(results.stages_ms.values()) <= results.elapsed_ms


def test_a_string_is_read_as_latex_and_an_unknown_fusion_is_refused(indexed):
    results = formula_search.search(Formula.objects.all(), r"e^{i\pi} + 1 = 0", k=1)
    assert results.query.notation == "latex" and results.hits[0].formula.latex == r"e^{i\pi} + 1 = 0"
    with pytest.raises(ValueError, match="unknown fusion 'best'; choose one of learned"):
        formula_search.search(Formula.objects.all(), "x", fusion="best")


def test_a_formula_is_read_in_its_notation_and_an_unreadable_one_raises_with_its_position():
    assert formula_search.read_formula("<math><mi>x</mi></math>", "mathml").notation == "mathml"
    with pytest.raises(ParseError) as raised:
        formula_search.read_formula(r"\frac{1}{")
    assert raised.value.kind == "unbalanced_braces" and raised.value.pos is not None


def test_several_queries_share_one_first_stage_and_score_as_each_alone(index_file):
    """A question's formulas: one codebook probe and posting-list read per representation, one matrix read."""
    index_file(corpus="big")
    queries, failed = parse_queries([r"\sin^2 x + \cos^2 x = 1", "a^2 + b^2 = c^2", r"\frac{1}{"])
    assert [text for text, _ in failed] == [r"\frac{1}{"] and failed[0][1].pos is not None
    alone = [formula_search.scored_candidates(Formula.objects.all(), query, 2, "big") for query in queries]
    with CaptureQueriesContext(connection) as captured:
        together = formula_search.scored_candidates_of(Formula.objects.all(), queries, 2, "big")
    # ids-if-small, savepoint, corpus id, 2 × (ef_search, nearest centroids, posting lists), common sub-expressions,
    # 2 × structure matches, release, candidate matrices
    assert len(captured.captured_queries) == 14
    assert len(alone) == len(together) == 2 and all(one.ids for one in alone)
    assert [one.ids for one in alone] == [batched.ids for batched in together]
    assert all(np.allclose(one.parts[name], batched.parts[name])
               for one, batched in zip(alone, together) for name in ("slg", "opg"))


def test_the_scores_of_given_formulas_are_their_exact_scores_as_candidates(indexed):
    queries, _ = parse_queries([r"\sin^2 x + \cos^2 x = 1", "a^2 + b^2 = c^2"])
    scored = [formula_search.scored_candidates(Formula.objects.all(), query, 100) for query in queries]
    assert scored[0].ids == sorted(Formula.objects.values_list("id", flat=True))  # a small collection, scored whole
    ids, parts = formula_search.scores_of(Formula.objects.all(), queries, set(scored[0].ids[:3]))
    assert sorted(ids) == scored[0].ids[:3] and len(parts) == 2
    for query_parts, candidates in zip(parts, scored):
        at = [candidates.ids.index(i) for i in ids]
        assert np.allclose(query_parts["slg"], candidates.parts["slg"][at])
        assert np.allclose(query_parts["opg"], candidates.parts["opg"][at])
