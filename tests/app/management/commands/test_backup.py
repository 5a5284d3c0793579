"""`backup [PATH]`: the file it writes, where it goes without a path, and a failed dump as one CommandError
(the dump and restore themselves: tests/app/test_backup.py)."""
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

pytestmark = pytest.mark.django_db


def test_a_backup_is_written_to_the_path_given_and_its_size_is_said(tmp_path, capsys):
    path = tmp_path / "nested" / "db.dump"
    call_command("backup", str(path))
    assert path.read_bytes().startswith(b"PGDMP")
    assert capsys.readouterr().out.strip() == f"backed up to {path} ({path.stat().st_size:,} bytes)"


def test_without_a_path_the_backup_goes_to_var_backups_named_after_the_database(tmp_path, settings):
    settings.VAR_DIR = tmp_path
    call_command("backup")
    [written] = (tmp_path / "backups").iterdir()
    assert written.name.startswith(connection.settings_dict["NAME"] + "-") and written.suffix == ".dump"


def test_a_failed_backup_leaves_no_file(tmp_path, monkeypatch):
    monkeypatch.setitem(connection.settings_dict, "NAME", "no_such_database")
    with pytest.raises(CommandError, match='pg_dump failed: .*database "no_such_database" does not exist'):
        call_command("backup", str(tmp_path / "db.dump"))
    assert list(tmp_path.iterdir()) == []
