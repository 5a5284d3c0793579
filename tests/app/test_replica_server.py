"""The embedded primary's hot standby (the session's `standby`, a real clone): it streams what the primary commits, a
folder that can serve is reused, and one that cannot is cloned again, saying why."""
import psycopg
import pytest
from django.db import connection

from searchapp.replica_server import replay_delay
from searchapp.search.replica import conninfo

pytestmark = pytest.mark.django_db  # the test database, which the standby clones with its server


def _standby_sees(standby, sql: str):
    with standby.connect() as replica, psycopg.connect(conninfo(connection.settings_dict), autocommit=True) as primary:
        replay_delay(primary, replica)
        return replica.execute(sql).fetchall()


def test_the_standby_streams_what_the_primary_commits(standby):
    standby.start()
    with psycopg.connect(conninfo(connection.settings_dict), autocommit=True) as primary:
        primary.execute("CREATE TABLE IF NOT EXISTS streamed (note text)")
        primary.execute("INSERT INTO streamed VALUES ('written on the primary')")
    try:
        assert _standby_sees(standby, "SELECT pg_is_in_recovery(), note FROM streamed") == [
            (True, "written on the primary")]
    finally:
        with psycopg.connect(conninfo(connection.settings_dict), autocommit=True) as primary:
            primary.execute("DROP TABLE streamed")


def test_a_stopped_standby_is_started_again_from_its_folder(standby):
    standby.start()
    first_file = (standby.folder / "PG_VERSION").stat().st_ino
    standby.stop()
    assert not standby.running()
    said: list[str] = []
    standby.start(say=said.append)
    assert said == [f"replica: reusing {standby.folder}"] and standby.running()
    assert (standby.folder / "PG_VERSION").stat().st_ino == first_file  # not cloned again


def test_a_folder_whose_slot_the_primary_dropped_is_cloned_again_saying_why(standby):
    """As when the primary had to remove WAL the stopped standby had not received (its slot lost)."""
    standby.start()
    standby.stop()
    with psycopg.connect(conninfo(connection.settings_dict), autocommit=True) as primary:
        primary.execute("SELECT pg_drop_replication_slot(%s)", [standby.slot])
    said: list[str] = []
    standby.start(say=said.append)
    assert said[0] == f"replica: {standby.folder} cannot serve (the primary has no replication slot {standby.slot} " \
                      "for it); cloning the primary again"
    assert said[1].startswith("replica: cloning the primary (")
    assert _standby_sees(standby, "SELECT pg_is_in_recovery()") == [(True,)]
