import random

import pytest

from mathparse.augment import MASK_VALUE
from ml.training.pairs import CONDITIONS, PairKind, augmenter, make_views, view_names


def pairs(condition):
    return {(kind.reference, kind.other) for kind in CONDITIONS[condition]}


@pytest.mark.parametrize(
    "condition, expected",
    [
        pytest.param("slg", {("slg", "slg-sub")}, id="slg"),
        pytest.param("opg", {("opg", "opg-sub")}, id="opg"),
        pytest.param("slg+opg", {("slg", "opg"), ("opg", "slg")}, id="slg+opg"),
        pytest.param("inner", {("slg", "slg-sub"), ("opg", "opg-sub"), ("slg", "opg"), ("opg", "slg")}, id="inner"),
        pytest.param("outer", {("slg", "opg"), ("opg", "slg"), ("slg", "opg-sub"), ("opg", "slg-sub")}, id="outer"),
    ],
)
def test_conditions_follow_the_paper(condition, expected):
    assert pairs(condition) == expected


def test_inner_outer_is_the_union():
    assert pairs("inner+outer") == pairs("inner") | pairs("outer")
    assert len(CONDITIONS["inner+outer"]) == 6


@pytest.mark.parametrize(
    "kind, augmented, view",
    [
        pytest.param(PairKind("slg", "opg"), False, "opg", id="full-plain"),
        pytest.param(PairKind("slg", "opg"), True, "opg-aug", id="full-augmented"),
        pytest.param(PairKind("opg", "slg-sub"), True, "slg-sub", id="sub-is-augmented-in-place"),
    ],
)
def test_other_view(kind, augmented, view):
    assert kind.other_view(augmented) == view


def test_view_names_put_references_first():
    assert view_names(CONDITIONS["outer"], augmented=True) == ["slg", "opg", "opg-aug", "slg-aug", "opg-sub",
                                                               "slg-sub"]


def test_views_keep_references_clean_and_augment_the_rest(make_formula):
    slt, opt = make_formula("plus", "x", "y")
    mask_everything = augmenter(["mask_attributes"], (0.3, 0.005, 0.002), mask_p=1.0)
    views = make_views(slt, opt, ["slg", "opg", "slg-aug", "opg-sub"], random.Random(0), mask_everything)
    assert views["slg"] is slt and views["opg"] is opt
    assert all(label.endswith(MASK_VALUE) for label in views["slg-aug"].labels)
    assert len(views["opg-sub"]) < len(opt)


def test_views_of_a_missing_opt_are_none(make_formula):
    slt, _ = make_formula("plus", "x", "y")
    views = make_views(slt, None, ["slg", "opg", "opg-sub"], random.Random(0), None)
    assert views["opg"] is None and views["opg-sub"] is None


def test_no_augmentations_means_no_augmenter():
    assert augmenter([], (0.3,), 0.01) is None
