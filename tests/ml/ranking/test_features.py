import numpy as np
import pytest

from mathparse import parse
from ml.ranking.features import FEATURES, Candidates, feature_matrix
from ml.retrieval.structure import structure_terms


def graphs(latex: str):
    return parse(latex, "latex")


def features_of(query: str, candidates: list[str]) -> dict[str, np.ndarray]:
    q = graphs(query)
    parsed = [graphs(text) for text in candidates]
    terms = [structure_terms(g.slt, g.opt) for g in parsed]
    stacked = Candidates(np.concatenate(terms), np.array([len(t) for t in terms]), np.array([len(g.slt) for g in parsed]),
                         np.linspace(0.9, 0.5, len(parsed)), np.linspace(0.8, 0.4, len(parsed)))
    matrix = feature_matrix(structure_terms(q.slt, q.opt), len(q.slt), stacked)
    assert matrix.shape == (len(candidates), len(FEATURES)) and matrix.dtype == np.float32
    return {name: matrix[:, i] for i, name in enumerate(FEATURES)}


def test_an_identical_formula_scores_one_on_every_structural_feature():
    found = features_of(r"\frac{a}{b} + c", [r"\frac{a}{b} + c"])
    for name in FEATURES[2:]:
        assert found[name][0] == pytest.approx(1.0), name


def test_the_dense_scores_pass_through():
    found = features_of("x+1", ["x+1", "y+2"])
    assert found["slg"].tolist() == pytest.approx([0.9, 0.5]) and found["opg"].tolist() == pytest.approx([0.8, 0.4])


def test_a_formula_containing_the_query_has_full_recall_and_the_whole_query_in_common():
    found = features_of("x^2+1", [r"\frac{x^2+1}{y} = 3", "x^3+1"])
    assert found["path_recall"][0] == 1.0 and found["common_subtree"][0] == 1.0
    assert found["path_precision"][0] < 1.0 and found["size_ratio"][0] < 1.0
    assert found["common_subtree"][1] < 1.0 and found["path_recall"][1] < 1.0


def test_a_rare_query_symbol_found_weighs_more_than_a_common_one():
    # z is in one candidate, x in all three: finding z is worth more than finding x
    found = features_of("x+z", ["z", "x", "x+1", "x-2"])
    assert found["symbol_idf_recall"][0] > found["symbol_idf_recall"][1] > 0


def test_no_candidates_give_an_empty_matrix():
    q = graphs("x")
    empty = Candidates(np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),
                       np.zeros(0), np.zeros(0))
    assert feature_matrix(structure_terms(q.slt, q.opt), 1, empty).shape == (0, len(FEATURES))


def test_a_candidate_without_terms_scores_zero_on_structure():
    q = graphs("x+1")
    candidates = Candidates(np.zeros(0, dtype=np.int32), np.array([0]), np.array([3]), np.array([0.5]), np.array([0.4]))
    row = feature_matrix(structure_terms(q.slt, q.opt), 3, candidates)[0]
    assert row[FEATURES.index("size_ratio")] == 1.0
    assert [value for name, value in zip(FEATURES[2:], row[2:]) if name != "size_ratio"] == [0.0] * (len(FEATURES) - 3)
