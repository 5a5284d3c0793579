"""The question search as one pipeline (`searchapp.search.question_search`): `Post.objects.search` is its way in,
and the one box's question gets the formulas like its own beside its answers."""
import pytest

from searchapp.models import Post
from searchapp.search import question_search
from searchapp.search.results import PostResults
from tests.app.factories import EIGEN_QUESTION

pytestmark = pytest.mark.django_db
TWO_FORMULAS = r"Is $\int_0^1 x^2 \, dx$ the same as $e^{i\pi} + 1 = 0$ in any sense?"


def test_the_search_verb_searches_its_own_queryset_as_the_pipeline_does(threads):
    kept = Post.objects.exclude(source_id="12")
    found = kept.search(EIGEN_QUESTION, k=3, mode="text")
    assert [hit.post.pk for hit in found.hits] == [
        hit.post.pk for hit in question_search.search(kept, EIGEN_QUESTION, k=3, mode="text").hits]
    assert found.hits and "12" not in {hit.post.source_id for hit in found.hits}
    assert Post.objects.search(EIGEN_QUESTION, k=1, mode="text").hits[0].post.source_id == "12"


def test_an_unknown_mode_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown mode 'best'; choose one of ssemb"):
        question_search.search(Post.objects.all(), "why", mode="best")


def test_the_one_box_gets_the_answers_and_the_formulas_like_each_of_the_questions_formulas(threads, monkeypatch):
    monkeypatch.setattr(question_search, "FORMULAS_BESIDE", 1)
    results, beside = question_search.answers_with_formulas(Post.objects.all(), TWO_FORMULAS, k=2, mode="formula",
                                                            corpus="threads")
    assert isinstance(results, PostResults) and len(results.hits) == 2 and len(results.question.formulas) == 2
    assert [group.latex for group in beside] == [r"\int_0^1 x^2 \, dx"]  # the first formula only, as written
    assert 1 <= len(beside[0].hits) <= question_search.HITS_BESIDE
    assert beside[0].hits[0].formula.latex == r"\int_{0}^{1}x^{2}\,dx=\frac{1}{3}"
    assert {hit.formula.corpus.name for hit in beside[0].hits} == {"threads"}
