"""Matrices stored as int8 (×127) before 4-bit levels are re-encoded as if indexed now."""
import importlib

import numpy as np
import pytest
from django.apps import apps

from searchapp.models import Formula
from searchapp.vectors import decode_matrix

pytestmark = pytest.mark.django_db
migration = importlib.import_module("searchapp.migrations.0013_int4_matrices")


def test_int8_matrices_become_the_4_bit_blobs_indexing_writes(index_file):
    index_file()
    now = {f.pk: (bytes(f.slg_matrix), bytes(f.opg_matrix)) for f in Formula.objects.all()}
    assert len(now) == 7  # the distinct formulas of FORMULAS
    for formula in Formula.objects.all():  # as the previous version stored them
        for field in ("slg_matrix", "opg_matrix"):
            int8 = np.clip(np.rint(decode_matrix(getattr(formula, field)) * 127), -127, 127).astype(np.int8)
            setattr(formula, field, int8.tobytes())
        formula.save()
    migration.int8_to_int4(apps, None)
    for formula in Formula.objects.all():
        for field, blob in zip(("slg_matrix", "opg_matrix"), now[formula.pk]):
            again = bytes(getattr(formula, field))
            assert len(again) == len(blob)
            same = np.mean(np.frombuffer(again, np.uint8) == np.frombuffer(blob, np.uint8))
            assert same > 0.9  # a level can move by one where int8 rounding crossed a level's edge
            assert (decode_matrix(again) * decode_matrix(blob)).sum(axis=1).min() > 0.99
