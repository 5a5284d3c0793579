"""Judged queries read through the real search path: each candidate with its feature row and dense score, named as
the judgments name it."""
import pytest

from searchapp.learning.judged import formula_docs, judged_topics, topic_candidates
from searchapp.models import Formula

pytestmark = pytest.mark.django_db


def test_feedback_names_each_formula_by_its_id():
    assert formula_docs([7, 3]) == {7: ["7"], 3: ["3"]}


def test_a_query_gets_every_candidate_of_its_corpus_with_one_feature_row_and_dense_score_each(index_file):
    index_file()
    index_file([r"x^2 + y^2 = z^2"], corpus="other", name="other.txt")
    found = topic_candidates(r"x^2 + y^2 = z^2", "test")
    ids = set(Formula.objects.filter(corpus__name="test").values_list("pk", flat=True))
    assert sorted(found.docs) == sorted(str(pk) for pk in ids)  # the small corpus is scored whole, the other left out
    assert found.features.shape[0] == len(found.docs) == found.dense.shape[0]
    same = str(Formula.objects.get(corpus__name="test", latex=r"x^2 + y^2 = z^2").pk)
    assert found.dense[found.docs.index(same)] == found.dense.max()


def test_a_formula_standing_for_several_judged_docs_repeats_its_row_for_each(indexed):
    one = Formula.objects.get(latex=r"e^{i\pi} + 1 = 0").pk
    found = topic_candidates(r"e^{i\pi} + 1 = 0", "test",
                             lambda ids: {pk: ["a", "b"] if pk == one else [str(pk)] for pk in ids})
    a, b = found.docs.index("a"), found.docs.index("b")
    assert (found.features[a] == found.features[b]).all() and found.dense[a] == found.dense[b]
    assert str(one) not in found.docs


def test_topics_whose_query_cannot_be_parsed_are_listed_and_the_others_read_in_order(indexed):
    seen = []
    data, unreadable = judged_topics({"B.2": r"\frac{1}{", "B.1": r"a^2 + b^2 = c^2"}, "test", progress=seen.append)
    assert list(data) == ["B.1"] and unreadable == ["B.2"]
    assert seen == ["B.1", "B.2"]
