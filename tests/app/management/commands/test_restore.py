"""`manage.py restore` asks a person at a terminal, and a script must say --yes (the round trip: test_backup.py)."""
import sys

import pytest
from django.core.management import CommandError, call_command

from searchapp.models import Corpus


@pytest.mark.django_db
def test_restore_without_a_terminal_refuses_unless_told_yes(tmp_path, monkeypatch):
    backup = tmp_path / "db.dump"
    call_command("backup", str(backup))
    monkeypatch.setattr(sys, "stdin", open(backup, "rb"))  # not a terminal
    with pytest.raises(CommandError, match="replaces everything in database .*; pass --yes"):
        call_command("restore", str(backup))


@pytest.mark.django_db
def test_restore_asks_and_an_answer_other_than_yes_changes_nothing(tmp_path, monkeypatch):
    backup = tmp_path / "db.dump"
    call_command("backup", str(backup))
    Corpus.objects.create(name="kept")
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt: "y")
    with pytest.raises(CommandError, match="cancelled; nothing was changed"):
        call_command("restore", str(backup))
    assert Corpus.objects.filter(name="kept").exists()
