"""A throw-away database for benchmarks: created and migrated on the configured server, dropped afterwards."""
from __future__ import annotations

import os
from contextlib import contextmanager

from django.db import connection


def bench_database(what: object) -> str:
    """`<database>_bench_<what>` (`mathsearch_bench_1000000` beside the default `mathsearch`): named after the database
    it stands beside, so that two test suites' benchmarks, each a child on its suite's own test database, never
    build into one."""
    return f"{connection.settings_dict['NAME']}_bench_{what}"


@contextmanager
def throwaway_database(name: str | None = None, keep: bool = False, reuse: bool = False):
    """Switch the default connection to a fresh database for the block (Django's test-database machinery).

    `keep` leaves it on the server afterwards; `reuse` opens a kept one as it is instead of starting afresh.
    """
    name = name or bench_database(os.getpid())
    connection.settings_dict["TEST"] = {**connection.settings_dict.get("TEST", {}), "NAME": name}
    original = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False, keepdb=reuse)
    try:
        yield name
    finally:
        if keep:
            connection.close()
            connection.settings_dict["NAME"] = original
        else:
            connection.creation.destroy_test_db(original, verbosity=0)
