"""The collapse before the unique judgments: each person's latest judgment per query and result stays, clicks too."""
import datetime
import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.utils import timezone

from searchapp.models import Feedback, Formula

pytestmark = pytest.mark.django_db
migration = importlib.import_module("searchapp.migrations.0018_feedback_one_judgment_per_person")
UNIQUE = [c for c in Feedback._meta.constraints if c.name.startswith("one_judgment_per_")]


def test_each_sessions_latest_judgment_is_kept_and_the_constraints_then_hold(index_file):
    index_file()
    first, second = Formula.objects.order_by("id")[:2]
    with connection.schema_editor() as editor:  # as the table stood before: duplicates allowed
        for constraint in UNIQUE:
            editor.remove_constraint(Feedback, constraint)
    start = timezone.now()

    def add(kind, formula, session, seconds, query="q"):
        return Feedback.objects.create(query=query, formula=formula, kind=kind, rank=1, session_key=session,
                                       created_at=start + datetime.timedelta(seconds=seconds)).pk

    for second_pressed in range(12):  # twelve presses of Relevant, then one of Not relevant
        add("relevant", first, "s1", second_pressed)
    latest = add("not_relevant", first, "s1", 20)
    other_session = add("relevant", first, "s2", 1)
    other_query = add("relevant", first, "s1", 2, query="q2")
    add("relevant", second, "s1", 5)
    same_moment = add("not_relevant", second, "s1", 5)  # a tie in time: the later row wins
    clicks = [add("click", first, "s1", seconds) for seconds in (3, 4, 30)]

    migration.collapse(apps, None)

    assert set(Feedback.objects.judgments().values_list("pk", flat=True)) == {
        latest, other_session, other_query, same_moment}
    assert sorted(Feedback.objects.filter(kind="click").values_list("pk", flat=True)) == clicks
    with connection.cursor() as cursor:  # this test's inserts leave deferred FK checks that block CREATE INDEX
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    with connection.schema_editor() as editor:
        for constraint in UNIQUE:
            editor.add_constraint(Feedback, constraint)
