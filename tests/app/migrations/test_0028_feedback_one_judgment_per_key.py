"""Judgments held by the query's meaning: of one person's judgments of a result under several spellings of one query,
the latest stays; other people's, other queries' and clicks stay too."""
import datetime
import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.utils import timezone

from searchapp.models import Feedback, Formula

pytestmark = pytest.mark.django_db
migration = importlib.import_module("searchapp.migrations.0028_feedback_one_judgment_per_key")
UNIQUE = [c for c in Feedback._meta.constraints if c.name.startswith("one_judgment_per_")]


def test_each_persons_latest_judgment_of_a_querys_meaning_is_kept(index_file):
    index_file()
    formula = Formula.objects.order_by("id").first()
    with connection.schema_editor() as editor:  # as the table stood before: one judgment per spelling
        for constraint in UNIQUE:
            editor.remove_constraint(Feedback, constraint)
    start = timezone.now()

    def add(query, kind, session, seconds):
        return Feedback.objects.create(query=query, formula=formula, kind=kind, rank=1, session_key=session,
                                       created_at=start + datetime.timedelta(seconds=seconds)).pk

    add("x^2", "relevant", "s1", 1)
    latest = add("x^{2}", "not_relevant", "s1", 2)  # the same query written otherwise, later
    other_person = add("x^2", "relevant", "s2", 1)
    other_query = add("y^2", "relevant", "s1", 1)
    click = add("x^2", "click", "s1", 3)
    Feedback.objects.filter(pk=other_query).update(query_key="")  # a row written without its key gets it first

    migration.collapse_by_key(apps, None)

    assert set(Feedback.objects.values_list("pk", flat=True)) == {latest, other_person, other_query, click}
    assert Feedback.objects.get(pk=other_query).query_key != ""
    with connection.cursor() as cursor:  # this test's inserts leave deferred FK checks that block CREATE INDEX
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    with connection.schema_editor() as editor:
        for constraint in UNIQUE:
            editor.add_constraint(Feedback, constraint)
