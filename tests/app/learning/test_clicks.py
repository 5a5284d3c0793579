"""Clicks as grades: read against the pages that showed them, corrected for position, beaten by judgments."""
import datetime

import pytest
from django.utils import timezone

from ml.ranking.click_model import estimate_propensities
from searchapp.learning.clicks import click_grade, estimated_propensities, feedback_grades, new_signals
from searchapp.models import Feedback, Formula, Impression
from tests.app.factories import log_page

pytestmark = pytest.mark.django_db
PRIOR = estimate_propensities([], [], [])  # θ_k = 1/k
QUERY = "x^2"


@pytest.fixture
def formulas(index_file):
    index_file()
    return list(Formula.objects.filter(corpus__name="test").order_by("pk"))


@pytest.mark.parametrize("relevance, examined, clicked, grade", [
    pytest.param(0.6, 3.0, True, 2, id="clicked-by-most-who-looked"),
    pytest.param(0.3, 3.0, True, 1, id="clicked-by-some"),
    pytest.param(0.0, 3.0, False, 0, id="looked-at-and-passed-over"),
    pytest.param(0.0, 0.5, False, None, id="shown-too-deep-to-say"),
    pytest.param(1.0, 1.0, True, 1, id="one-click-is-a-click"),
])
def test_a_grade_needs_results_that_were_looked_at(relevance, examined, clicked, grade):
    assert click_grade(relevance, examined, clicked) == grade


def test_a_deep_result_clicked_as_often_as_a_top_one_earns_the_higher_grade(formulas):
    top, deep = formulas[0], formulas[5]
    for i in range(10):  # top at rank 1 clicked 3 times in 10; deep at rank 5 clicked 3 times in 10 too
        log_page(QUERY, [top] + formulas[1:4] + [deep], [0, 4] if i < 3 else [], session=f"s{i}")
    grades = feedback_grades("test", PRIOR)[QUERY]
    assert grades[top.pk] == 1  # 0.3 of those who looked
    assert grades[deep.pk] == 2  # 0.3 × 5 of those who looked (two looks in ten showings), capped at 1
    assert grades[formulas[1].pk] == 0  # shown at rank 2 ten times, never clicked


def test_a_page_of_all_corpora_grades_each_corpus_its_own_formulas(formulas, index_file):
    index_file(["z^9 + 1"], corpus="other", name="other.txt")
    mixed = formulas[:2] + list(Formula.objects.filter(corpus__name="other"))
    for i in range(8):
        log_page(QUERY, mixed, [0, 2], session=f"s{i}")
    Impression.objects.update(corpus=None)  # searches of all corpora
    assert feedback_grades("test", PRIOR)[QUERY] == {formulas[0].pk: 2, formulas[1].pk: 0}
    assert feedback_grades("other", PRIOR)[QUERY] == {mixed[2].pk: 2}


def test_judgments_beat_clicks_and_clicks_without_their_page_count_nothing(formulas):
    log_page(QUERY, formulas[:3], [0, 0, 0], session="s1")
    log_page(QUERY, formulas[:3], [0], session="s2")
    Feedback.objects.create(query=QUERY, formula=formulas[0], kind="not_relevant", rank=1)
    Feedback.objects.create(query="y^2", formula=formulas[4], kind="click", rank=7)
    grades = feedback_grades("test", PRIOR)
    assert grades[QUERY][formulas[0].pk] == 0 and "y^2" not in grades


def test_what_was_only_served_counts_nothing_and_one_person_counts_once(formulas):
    for i in range(10):
        log_page(QUERY, formulas[:4], session=f"api{i}", seen=False)  # served to an API client, never seen
    assert feedback_grades("test", PRIOR) == {}
    for _ in range(10):
        log_page(QUERY, formulas[:4], [3], session="one")  # one person ten times: one look at rank 4, one click
    assert feedback_grades("test", PRIOR)[QUERY] == {formulas[3].pk: 1}  # as one click, not as ten


def test_propensities_come_from_the_pages_people_saw_and_new_feedback_is_counted_since_a_time(formulas):
    assert not estimated_propensities().estimated  # no logs: the prior
    for i in range(40):
        log_page(QUERY, formulas[:4], [i % 4] if i % 2 else [0], session=f"s{i}")
        log_page(QUERY, formulas[:4], session=f"api{i}", seen=False)  # only served: not a row of the estimate
    found = estimated_propensities()
    assert found.estimated and found.impressions == 160 and found.clicks == 40 and found.at(1) == 1.0
    Feedback.objects.all().delete()  # the clicks above, whose rank 1 would count too
    before = timezone.now() - datetime.timedelta(hours=1)
    Feedback.objects.create(query=QUERY, formula=formulas[0], kind="relevant", rank=1, created_at=before)
    Feedback.objects.create(query=QUERY, formula=formulas[1], kind="relevant", rank=2)
    page = Impression.objects.filter(session_key="s0").get()
    for rank in (2, 4, 4, 3):  # one person's clicks on one formula: once, at the deepest rank
        Feedback.objects.create(query=QUERY, formula=formulas[2], kind="click", rank=rank, impression=page,
                                session_key="s0")
    Feedback.objects.create(query=QUERY, formula=formulas[3], kind="click", rank=40)  # without its page: nothing
    assert new_signals("test", None, PRIOR) == pytest.approx(2 + 4)
    assert new_signals("test", before, PRIOR) == pytest.approx(1 + 4)
    assert new_signals("other", None, PRIOR) == 0
