"""Searches on a real hot standby of the test database's Postgres (the session's `standby`): served by it while it
serves, by the primary as soon as it is stopped or lags past the bound, and by it again once it is back; each change
logged once."""
import logging
import math
import time
from contextlib import contextmanager

import psycopg
import pytest
from django.db import connection, connections

from searchapp.models import Formula
from searchapp.replica_server import replay_delay
from searchapp.search.database import REPLICA, replica_at
from searchapp.search.replica import conninfo, replica_monitor

EULER = r"e^{i\pi} + 1 = 0"
pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "replica"])


@pytest.fixture(scope="module")
def read_standby(standby):
    """This module's searches read the standby: set up before the test's database fixture, which must know it."""
    with replica_at(standby.url(connection.settings_dict["NAME"])):
        yield standby


@pytest.fixture
def replica(read_standby):
    """The standby, running and read by searches (a test before may have stopped it, and the monitor probes it
    again only every half second)."""
    read_standby.start()
    _until(lambda: replica_monitor().state().serving)
    return read_standby


def _replayed(replica) -> None:
    """Wait until the standby has replayed every transaction the primary committed so far."""
    with replica.connect() as standby, psycopg.connect(conninfo(connection.settings_dict), autocommit=True) as primary:
        replay_delay(primary, standby)


@contextmanager
def _statements(alias: str):
    """The SQL this thread runs on `alias` in the block."""
    ran: list[str] = []

    def record(execute, sql, params, many, context):
        ran.append(sql)
        return execute(sql, params, many, context)

    with connections[alias].execute_wrapper(record):
        yield ran


def _search(latex: str = EULER) -> tuple[str, list[str]]:
    """Which database served a search of `latex` (by the monitor's counts), and its hits."""
    before = replica_monitor().served.copy()
    hits = [hit.formula.latex for hit in Formula.objects.search(latex, k=3).hits]
    served = replica_monitor().served - before
    assert sum(served.values()) == 1
    return next(iter(served)), hits


def _changes(caplog) -> list[str]:
    """The monitor's log lines, up to their colon."""
    return [record.message.split(":")[0] for record in caplog.records if record.name == "searchapp.search.replica"]


def _until(condition) -> None:
    """Poll `condition` until it holds: no deadline, so not a measure of speed (a hang is failed by the per-test
    timeout, pytest.ini)."""
    while not condition():
        time.sleep(0.05)


def test_a_search_reads_the_standby_and_the_next_one_after_it_stops_reads_the_primary(replica, index_file, caplog):
    index_file()  # committed on the primary, streamed to the standby
    _replayed(replica)
    with _statements(REPLICA) as on_replica:
        database, hits = _search()
    assert database == REPLICA and hits[0] == EULER and on_replica
    with connections[REPLICA].cursor() as cursor:
        cursor.execute("SELECT pg_is_in_recovery()")
        assert cursor.fetchone() == (True,)  # the search's connection is the standby's

    replica.stop()
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="searchapp.search.replica"):
        assert _search() == ("default", hits)
        assert _search() == ("default", hits)
    assert _changes(caplog) == ["searches read the primary"]  # once


def test_a_search_the_standby_fails_midway_runs_again_on_the_primary(replica, index_file, monkeypatch):
    """The monitor is kept from probing again, so it still says the standby serves, and the search starts there."""
    index_file()
    _replayed(replica)
    assert _search()[0] == REPLICA
    monkeypatch.setattr(replica_monitor(), "_due", math.inf)
    replica.stop()
    assert replica_monitor().state().serving
    database, hits = _search()
    assert (database, hits[0]) == ("default", EULER)
    assert replica_monitor().state().kind == "down"  # the failure told the monitor: the next searches read the primary


def test_searches_come_back_to_the_standby_once_it_is_started_again(replica, index_file, caplog):
    index_file()
    replica.stop()
    assert _search()[0] == "default"
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="searchapp.search.replica"):
        replica.start()
        _replayed(replica)
        _until(lambda: replica_monitor().state().serving)
        database, hits = _search()
    assert (database, hits[0]) == (REPLICA, EULER)
    assert _changes(caplog) == ["searches read the replica"]


def test_searches_read_the_primary_while_the_standby_lags_past_the_bound(replica, index_file, settings):
    """Replay paused on the standby while the primary indexes: its lag grows past the bound, then it catches up."""
    settings.MATHSEARCH_REPLICA_MAX_LAG = 1.0
    index_file()
    _replayed(replica)
    _until(lambda: replica_monitor().state().serving)
    with replica.connect() as standby:
        standby.execute("SELECT pg_wal_replay_pause()")
        try:
            index_file([r"\oint_C \vec{F} \cdot d\vec{r}"], corpus="more", name="more.txt")  # WAL it does not replay
            _until(lambda: replica_monitor().state().kind == "lagging")
            assert replica_monitor().state().lag_s > 1.0
            assert _search()[0] == "default"
        finally:
            standby.execute("SELECT pg_wal_replay_resume()")
    _until(lambda: replica_monitor().state().serving)
    assert _search()[0] == REPLICA
