"""A benchmark's throw-away database: the default connection is switched to a migrated database for the block and
switched back after it; a kept one stays on the server with its rows for the next run, any other is dropped."""
import os

import pytest
from django.db import connection

from searchapp.benchmarks.database import bench_database, throwaway_database
from searchapp.models import Corpus


def current_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        return cursor.fetchone()[0]


def on_the_server(name: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        return cursor.fetchone() is not None


@pytest.mark.django_db(transaction=True)  # the block closes and reopens the connection: no test transaction around it
def test_a_kept_database_is_reopened_with_its_rows_and_dropped_after_a_block_that_does_not_keep_it(monkeypatch):
    monkeypatch.setitem(connection.settings_dict, "TEST", dict(connection.settings_dict.get("TEST", {})))
    original, name = connection.settings_dict["NAME"], f"mathsearch_bench_test_{os.getpid()}"
    try:
        with throwaway_database(name, keep=True) as opened:
            assert opened == name == current_database()
            Corpus.objects.create(name="kept")  # migrated: the tables are there
        assert current_database() == original and connection.settings_dict["NAME"] == original
        assert not Corpus.objects.filter(name="kept").exists() and on_the_server(name)

        with throwaway_database(name, reuse=True):
            assert list(Corpus.objects.values_list("name", flat=True)) == ["kept"]
        assert current_database() == original and not on_the_server(name)

        with throwaway_database(name, keep=True):
            assert not Corpus.objects.exists()  # without reuse, a kept database starts afresh
    finally:
        connection.close()
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')


def test_a_benchmark_database_is_named_after_the_database_it_stands_beside():
    """The site's `mathsearch` has `mathsearch_bench_1000000`; a test suite's child benchmarks beside its own test
    database, so two suites on one server never build into one database."""
    assert bench_database(1000000) == f"{connection.settings_dict['NAME']}_bench_1000000"
    assert bench_database("pages").startswith("test_mathsearch") and bench_database("pages").endswith("_bench_pages")
