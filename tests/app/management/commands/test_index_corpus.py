import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from searchapp.models import Corpus, Formula

pytestmark = pytest.mark.django_db


def test_sync_indexing_reports_what_it_did_with_a_progress_bar(tmp_path, capsys):
    path = tmp_path / "formulas.txt"
    path.write_text("x^2+1\n\\frac{\nx^2+1\n")
    out = StringIO()
    call_command("index_corpus", str(path), "--format", "latex", "--corpus", "cli", "--sync", stdout=out)
    assert re.search(r"indexing: 100%.*\| 3/3 \[.*(record/s|s/record), failed=0, formulas=1\]", capsys.readouterr().err)
    assert "done: 3 records indexed, 0 failed, 1 new formulas, 1 formula errors" in out.getvalue()
    assert Formula.objects.filter(corpus__name="cli").count() == 1


@pytest.mark.parametrize("target, message", [
    pytest.param("missing.txt", "no such file: {path}", id="missing"),
    pytest.param(".", "{path} is a directory, not a file", id="directory"),
])
def test_a_path_that_is_not_a_file_is_a_clear_error(tmp_path, target, message):
    path = (tmp_path / target)
    with pytest.raises(CommandError, match=message.format(path=path).replace(".", r"\.")):
        call_command("index_corpus", str(path), "--format", "latex", "--corpus", "cli")


def test_a_failed_sync_job_exits_non_zero_with_the_reason(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text("{not json\n")
    with pytest.raises(CommandError, match="failed: none of the 1 records could be indexed"):
        call_command("index_corpus", str(path), "--format", "jsonl", "--corpus", "bad", "--sync", stdout=StringIO())


@pytest.mark.parametrize("name, message", [
    pytest.param("../elsewhere", "valid “slug”", id="path"),
    pytest.param("my corpus", "valid “slug”", id="space"),
    pytest.param("c" * 101, "at most 100 characters", id="long"),
])
def test_a_corpus_name_that_is_not_a_slug_is_refused_before_anything_is_stored(tmp_path, name, message):
    path = tmp_path / "formulas.txt"
    path.write_text("x^2\n")
    with pytest.raises(CommandError, match=message):
        call_command("index_corpus", str(path), "--format", "latex", "--corpus", name, "--sync", stdout=StringIO())
    assert not Corpus.objects.exists()
