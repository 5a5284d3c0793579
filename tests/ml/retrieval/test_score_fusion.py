import numpy as np
import pytest

from ml.retrieval.score_fusion import fuse

SLG = np.array([0.9, 0.5, 0.2])
OPG = np.array([0.1, 0.6, 0.4])


@pytest.mark.parametrize("method, expected", [
    pytest.param("max", [0.9, 0.6, 0.4], id="max"),
    pytest.param("avg", [0.5, 0.55, 0.3], id="avg"),
    pytest.param("f1", [2 * 0.9 * 0.1 / 1.0, 2 * 0.5 * 0.6 / 1.1, 2 * 0.2 * 0.4 / 0.6], id="f1"),
    pytest.param("rrf", [1 / 61 + 1 / 63, 1 / 62 + 1 / 61, 1 / 63 + 1 / 62], id="rrf"),
])
def test_fusions(method, expected):
    assert fuse(SLG, OPG, method) == pytest.approx(expected)


def test_weighted_fusion_uses_the_weight():
    assert fuse(SLG, OPG, "weighted", slg_weight=0.75) == pytest.approx(0.75 * SLG + 0.25 * OPG)


def test_f1_is_zero_when_one_side_is_zero():
    assert fuse(np.array([0.8]), np.array([0.0]), "f1") == pytest.approx([0.0])


def test_unknown_fusion_names_the_choices():
    with pytest.raises(ValueError, match="max, avg, f1, rrf, weighted"):
        fuse(SLG, OPG, "best")
