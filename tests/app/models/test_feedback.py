"""What people saw and said, as rows: the constraints the database holds them to and the QuerySet verbs that read
them by person, by page and by query meaning."""
import pytest
from django.db import IntegrityError, transaction

from searchapp.models import Feedback, Impression, Post
from searchapp.search.query_keys import formula_text_key, question_key
from tests.app.factories import staff_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def answer(formula):
    question = Post.objects.create(corpus=formula.corpus, source_id="q", title="Why?")
    return Post.objects.create(corpus=formula.corpus, source_id="a", parent=question, body="Because.")


def test_the_database_refuses_a_second_judgment_and_a_signal_on_nothing(formula, answer):
    Feedback.objects.create(query="q", formula=formula, kind="relevant", rank=1, session_key="s")
    Feedback.objects.create(query="q", formula=formula, kind="click", rank=1, session_key="s")
    Feedback.objects.create(query="q", post=answer, kind="relevant", rank=1, session_key="s")
    for fields in ({"formula": formula, "kind": "not_relevant"}, {"post": answer, "kind": "not_relevant"},
                   {"kind": "click"}, {"formula": formula, "post": answer, "kind": "click"}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Feedback.objects.create(query="q", rank=1, session_key="s", **fields)


def test_a_user_holds_one_judgment_per_query_meaning_whatever_the_session(formula):
    ada = staff_user()
    Feedback.objects.create(query="e^{i\\pi}", formula=formula, kind="relevant", rank=1, user=ada, session_key="s1")
    with pytest.raises(IntegrityError), transaction.atomic():
        Feedback.objects.create(query="e^{i \\pi }", formula=formula, kind="not_relevant", rank=2, user=ada,
                                session_key="s2")
    Feedback.objects.create(query="e^{i\\pi}", formula=formula, kind="relevant", rank=1, session_key="s1")
    assert Feedback.objects.judgments().count() == 2  # the session's own, apart from the user's


def test_a_row_is_keyed_by_its_query_s_meaning_when_first_saved(formula, answer):
    on_formula = Feedback.objects.create(query="e^{i \\pi }", formula=formula, kind="click", rank=3)
    on_answer = Feedback.objects.create(query="Why is it TRUE?", post=answer, kind="click", rank=1)
    assert on_formula.query_key == formula_text_key("e^{i\\pi}")
    assert on_answer.query_key == question_key("why is it true")
    assert str(on_formula) == f"click formula {formula.pk} for e^{{i \\pi }}"


def test_a_person_is_the_user_else_the_session(formula):
    ada = staff_user()
    for user, session in ((ada, "s1"), (ada, "s2"), (None, "s1"), (None, "s2")):
        Feedback.objects.create(query="q", formula=formula, kind="click", rank=1, user=user, session_key=session)
    assert Feedback.objects.of_person(ada.pk, "s9").count() == 2
    assert list(Feedback.objects.of_person(None, "s1").values_list("user", "session_key")) == [(None, "s1")]
    assert not Feedback.objects.of_person(None, "").exists()


def test_clicks_on_pages_are_read_by_page_and_formula(formula):
    shown, other = (Impression.objects.create(query="q", formula_ids=[formula.pk]) for _ in range(2))
    Feedback.objects.create(query="q", formula=formula, kind="click", rank=1, impression=shown)
    Feedback.objects.create(query="q", formula=formula, kind="relevant", rank=1, impression=shown)
    Feedback.objects.create(query="q", formula=formula, kind="click", rank=1)
    assert Feedback.objects.clicks_on([shown.pk]) == {(shown.pk, formula.pk)}
    assert Feedback.objects.clicks_on(Impression.objects.filter(pk=other.pk)) == set()


def test_a_person_s_chosen_buttons_are_read_under_any_spelling_of_the_query(formula, answer):
    Feedback.objects.create(query="e^{i\\pi}", formula=formula, kind="not_relevant", rank=1, session_key="s")
    Feedback.objects.create(query="e^{i\\pi}", formula=formula, kind="click", rank=1, session_key="s")
    Feedback.objects.create(query="Why is it true?", post=answer, kind="relevant", rank=1, session_key="s")
    Feedback.objects.create(query="e^{i\\pi}", formula=formula, kind="relevant", rank=1, session_key="other")
    assert Feedback.objects.chosen(None, "s", "e^{i \\pi }", formulas=[formula.pk]) == {
        ("formula", formula.pk): "not_relevant"}
    assert Feedback.objects.chosen(None, "s", "why is it TRUE?", posts=[answer.pk]) == {("post", answer.pk): "relevant"}
    assert Feedback.objects.chosen(None, "s", "e^{i\\pi}") == {}


def test_a_page_counts_as_looked_at_once_its_person_saw_something_of_it(formula):
    served = Impression.objects.create(query="x", formula_ids=[formula.pk, 7], session_key="s")
    seen = Impression.objects.create(query="x", formula_ids=[formula.pk, 7], seen=[formula.pk], session_key="s")
    assert list(Impression.objects.looked_at()) == [seen]
    assert set(Impression.objects.of_person(None, "s")) == {served, seen}
    assert str(Impression(query="x^2", formula_ids=[1, 2, 3], offset=10)) == "3 formulas from 11 for x^2"
