"""`manage.py load_starter`: the starter corpus is indexed once."""
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from searchapp.management.commands import load_starter
from searchapp.models import Corpus, IndexJob

pytestmark = pytest.mark.django_db


def test_a_starter_corpus_indexed_already_is_not_indexed_again():
    starter = Corpus.objects.create(name="starter")
    IndexJob.objects.create(corpus=starter, path=str(load_starter.STARTER_FILE.resolve()), format="jsonl",
                            state=IndexJob.State.DONE)
    out = StringIO()
    call_command("load_starter", "--sync", stdout=out)
    assert out.getvalue().strip() == "starter corpus already indexed" and IndexJob.objects.count() == 1


def test_a_missing_starter_file_is_named(monkeypatch, tmp_path):
    monkeypatch.setattr(load_starter, "STARTER_FILE", tmp_path / "formulas.jsonl")
    with pytest.raises(CommandError, match=f"^starter corpus not found at {tmp_path / 'formulas.jsonl'}$"):
        call_command("load_starter")
