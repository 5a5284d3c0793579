"""The notation backfill: rows indexed from Tangent strings before `Formula.notation` existed."""
import importlib

import pytest
from django.apps import apps

from mathparse import parse_latex, to_slt_string
from searchapp.models import Formula, Occurrence

pytestmark = pytest.mark.django_db
migration = importlib.import_module("searchapp.migrations.0006_formula_notation")


def test_tangent_strings_stored_as_latex_become_slt_rows_shown_as_latex(index_file):
    tangent = to_slt_string(parse_latex(r"\frac{a}{b}+1").slt)
    index_file([f"7\t1\t{tangent}"], name="slt.tsv", format="slt_tsv")
    index_file([r"[a,b]"], name="interval.txt")
    Formula.objects.filter(notation="slt").update(notation="latex", latex=tangent)  # as an older version stored it
    Occurrence.objects.filter(formula__slt_string=tangent).update(latex=tangent)
    migration.backfill(apps, None)
    converted = Formula.objects.get(slt_string=tangent)
    assert converted.notation == "slt" and not converted.latex.startswith("[")
    assert converted.occurrences.get().latex == converted.latex
    interval = Formula.objects.get(latex="[a,b]")  # LaTeX that merely starts with a bracket is left alone
    assert interval.notation == "latex"
