"""Backup and restore on the real (test) database: a round trip brings every row back exactly."""

import subprocess
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from searchapp.health import check_vector
from searchapp.models import Corpus, Feedback, Formula
from tests.app.factories import DEAD_BROKER, DEAD_DATABASE, run_manage


def snapshot() -> dict[str, list[str]]:
    """Every row of every table, as Postgres prints it."""
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
        rows = {}
        for table in tables:
            cursor.execute(f'SELECT row_to_json(t)::text FROM "{table}" t ORDER BY 1')
            rows[table] = [row[0] for row in cursor.fetchall()]
    return rows


@pytest.mark.django_db(transaction=True)  # pg_dump, in its own session, sees only committed rows
def test_restore_brings_back_every_row_after_changes_and_deletions(index_file, settings, tmp_path):
    index_file()
    formula = Formula.objects.get(latex=r"e^{i\pi} + 1 = 0")
    for kind, rank, person in (("relevant", 1, "a"), ("click", 2, "a"), ("not_relevant", 3, "b")):
        Feedback.objects.create(query="e^{i\\pi}", formula=formula, kind=kind, rank=rank, session_key=person)
    before = snapshot()
    settings.VAR_DIR = tmp_path

    call_command("backup")
    [written] = (tmp_path / "backups").glob("test_mathsearch*.dump")
    Feedback.objects.all().delete()
    Formula.objects.filter(pk=formula.pk).update(latex="changed")
    Corpus.objects.create(name="added-after-the-backup")
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE added_after_the_backup (x int)")
    call_command("restore", str(written), yes=True)

    assert snapshot() == before  # rows, django_migrations and the removal of the new table
    assert check_vector()[0]
    Feedback.objects.create(query="q", formula=formula, kind="click", rank=1)  # sequences came back too


@pytest.mark.django_db(transaction=True)
def test_a_backup_cut_short_changes_nothing_and_its_tools_have_ended(tmp_path, monkeypatch):
    started = []

    class Recorded(subprocess.Popen):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            started.append(self)

    Corpus.objects.create(name="dumped")
    backup = tmp_path / "db.dump"
    call_command("backup", str(backup))
    backup.write_bytes(backup.read_bytes()[:-2000])  # its table of contents is whole, some data is gone
    Corpus.objects.create(name="added-after-the-backup")
    before = snapshot()
    monkeypatch.setattr(subprocess, "Popen", Recorded)
    with pytest.raises(CommandError, match="pg_restore failed, nothing was changed: "):
        call_command("restore", str(backup), yes=True)
    # psql ran the statements the cut backup held: had it still been running, its transaction's locks would meet
    # whatever comes next (the flush after this test deadlocked with them once)
    assert [Path(process.args[0]).name for process in started][-2:] == ["pg_restore", "psql"]
    assert all(process.returncode is not None for process in started)
    assert snapshot() == before


@pytest.mark.django_db
@pytest.mark.parametrize("content, message", [
    pytest.param(None, "no such file: ", id="missing"),
    pytest.param(b"SELECT 1;\n", "is not a pg_dump custom-format backup: did not find magic string", id="sql"),
    pytest.param(b"PGDMP" + b"\0" * 200, "is not a pg_dump custom-format backup: unsupported version", id="broken"),
])
def test_restore_refuses_a_file_that_is_not_a_backup(tmp_path, content, message):
    path = tmp_path / "db.dump"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(CommandError, match=message):
        call_command("restore", str(path), yes=True)


@pytest.mark.django_db
def test_commands_on_an_unreachable_database_fail_in_one_line(tmp_path):
    backup = tmp_path / "db.dump"
    call_command("backup", str(backup))
    for args in (["backup", str(tmp_path / "new.dump")], ["restore", str(backup), "--yes"]):
        result = run_manage(*args, DATABASE_URL=DEAD_DATABASE, REDIS_URL=DEAD_BROKER)
        assert result.returncode == 1
        assert "Traceback" not in result.stderr
        assert result.stderr.strip().splitlines()[-1].startswith("CommandError: ")
        assert 'connection to server at "127.0.0.1", port 1 failed' in result.stderr
    assert not (tmp_path / "new.dump").exists()
