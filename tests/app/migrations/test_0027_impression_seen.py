"""Pages logged before looks were: a page a click named counts as seen down to its deepest click; the others count
nothing."""
import importlib

import pytest
from django.apps import apps

from searchapp.models import Feedback, Formula, Impression

pytestmark = pytest.mark.django_db
migration = importlib.import_module("searchapp.migrations.0027_impression_seen")


def test_a_clicked_page_is_seen_down_to_its_deepest_click_and_a_page_only_served_not(index_file):
    index_file()
    formulas = list(Formula.objects.order_by("pk")[:5])
    ids = [formula.pk for formula in formulas]
    clicked, served = (Impression.objects.create(query="q", formula_ids=ids, session_key="s") for _ in range(2))
    for formula, rank in ((formulas[1], 2), (formulas[3], 4)):
        Feedback.objects.create(query="q", formula=formula, kind="click", rank=rank, impression=clicked, session_key="s")

    migration.seen_down_to_clicks(apps, None)

    clicked.refresh_from_db()
    served.refresh_from_db()
    assert (clicked.seen, served.seen) == (ids[:4], [])
    assert list(Impression.objects.looked_at()) == [clicked]
