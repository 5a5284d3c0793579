"""The SQL helpers: ids as one array parameter, rows read in the binary format, rows written by binary COPY."""
import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from searchapp.models import Formula
from searchapp.sql import binary_rows, copy_binary, halfvec, id_array

pytestmark = pytest.mark.django_db


def test_an_id_list_is_one_array_parameter(indexed):
    wanted = list(Formula.objects.order_by("pk").values_list("pk", flat=True)[:3])
    with CaptureQueriesContext(connection) as captured:
        found = sorted(Formula.objects.filter(pk__in=id_array(wanted)).values_list("pk", flat=True))
    assert found == wanted and "unnest" in captured.captured_queries[0]["sql"]


@pytest.mark.parametrize("ids", [set(), {7}, np.array([3, 1, 2], dtype=np.int64), range(2**40, 2**40 + 3)],
                         ids=["none", "a set", "numpy ids", "past int4"])
def test_any_iterable_of_ids_is_one_literal(ids):
    with connection.cursor() as cursor:
        sql, params = id_array(ids).as_sql(None, connection)
        cursor.execute(sql, params)
        assert sorted(row[0] for row in cursor.fetchall()) == sorted(int(i) for i in ids)


def test_binary_rows_hold_blobs_as_bytes_and_are_logged_like_any_read(indexed):
    values = Formula.objects.order_by("pk").values_list("pk", "latex")
    with CaptureQueriesContext(connection) as captured:
        rows = binary_rows(values)
    assert [tuple(row) for row in rows] == list(values)
    assert len(captured.captured_queries) == 1
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")  # the connection stays usable for Django's own cursors


def test_copy_binary_writes_rows_with_their_halfvecs():
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE copied (id bigint, v halfvec(3))")
        copy_binary(cursor, "COPY copied (id, v) FROM STDIN", ["bigint", "halfvec"],
                    [(1, halfvec(np.array([0.5, -1.0, 2.0]))), (2, halfvec(None))])
        cursor.execute("SELECT id, v::text FROM copied ORDER BY id")
        assert cursor.fetchall() == [(1, "[0.5,-1,2]"), (2, None)]
