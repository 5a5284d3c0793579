"""Scoring the candidates: a formula finds itself at full score, similar ones rank above unrelated ones, hits align nodes."""
import pytest

from searchapp.models import Formula

pytestmark = pytest.mark.django_db


def test_a_stored_formula_finds_itself_first_with_full_score(indexed):
    results = Formula.objects.search(r"\sin^2 x + \cos^2 x = 1", k=5, fusion="f1")
    top = results.hits[0]
    assert top.formula.latex == r"\sin^2 x + \cos^2 x = 1"
    assert top.score == pytest.approx(1.0, abs=0.01) and top.score <= 1.0
    assert all(-1.0 <= part <= 1.0 for hit in results.hits for part in hit.parts.values())
    assert [hit.rank for hit in results.hits] == list(range(1, len(results.hits) + 1))
    assert all(a.score >= b.score for a, b in zip(results.hits, results.hits[1:]))


def test_similar_formulas_rank_above_unrelated_ones(indexed):
    ranked = [hit.formula.latex for hit in Formula.objects.search("p^2 + q^2 = r^2", k=7).hits]
    assert set(ranked[:2]) == {r"a^2 + b^2 = c^2", r"x^2 + y^2 = z^2"}


def test_hits_carry_score_parts_and_node_alignment(indexed):
    hit = Formula.objects.search(r"e^{i\pi} + 1 = 0", k=1).hits[0]
    assert set(hit.parts) == {"slg", "opg"}
    slg = hit.alignment["slg"]
    assert len(slg.pairs) == len(slg.query_labels)
    assert all(slg.query_labels[i] == slg.result_labels[j] for i, j, _ in slg.pairs)
