"""Rows written before the query key get theirs: a formula's as a formula query, an answer's as a question."""
import importlib

import pytest
from django.apps import apps

from searchapp.models import Feedback, Formula, Post
from searchapp.search.query_keys import feedback_key, formula_text_key

pytestmark = pytest.mark.django_db
migration = importlib.import_module("searchapp.migrations.0019_feedback_query_key")


def test_old_rows_are_keyed_and_equivalent_queries_share_their_key(index_file):
    index_file()
    formula, post = Formula.objects.first(), Post.objects.first()
    old = [Feedback(query=query, formula=formula, kind="click", rank=1, session_key="s") for query in ("x^2", "x^{2}")]
    old.append(Feedback(query="Why is x^2 >= 0", post=post, kind="relevant", rank=1, session_key="s"))
    Feedback.objects.bulk_create(old)  # as migration 0018 left them: no key
    assert set(Feedback.objects.values_list("query_key", flat=True)) == {""}

    migration.key_queries(apps, None)

    keys = dict(Feedback.objects.values_list("query", "query_key"))
    assert keys["x^2"] == keys["x^{2}"] == formula_text_key("x^2")
    assert keys["Why is x^2 >= 0"] == feedback_key("why is  X^2 >= 0", on_formula=False)
