"""Qrels from feedback: the latest judgment of each person counts, and answers are not formula qrels."""

import pytest

from searchapp.feedback.qrels import judgements
from searchapp.models import Feedback, Formula, Post

pytestmark = pytest.mark.django_db


def test_judgements_prefer_the_latest_explicit_judgement_over_clicks(formula):
    """Of two people's judgments of one formula, the later one counts."""
    other = Formula.objects.exclude(pk=formula.pk).first()
    for kind, target, person in [("click", formula, "a"), ("relevant", formula, "a"), ("not_relevant", formula, "b"),
                                 ("click", formula, "a"), ("click", other, "a")]:
        Feedback.objects.create(query="q", formula=target, kind=kind, rank=1, session_key=person)
    assert judgements() == {"q": {formula.pk: 0, other.pk: 1}}


def test_judgements_of_answers_are_not_formula_qrels(formula, tmp_path):
    from tests.app.factories import QUESTION_PAGES as PAGES
    from tests.app.factories import index_thread_pages

    index_thread_pages(tmp_path / "pages", PAGES)
    Feedback.objects.create(query="q", post=Post.objects.first(), kind="relevant", rank=1, session_key="a")
    Feedback.objects.create(query="q", formula=formula, kind="not_relevant", rank=1, session_key="a")
    assert judgements() == {"q": {formula.pk: 0}}
