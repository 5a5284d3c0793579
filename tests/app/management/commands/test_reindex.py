import pytest
from django.core.management import CommandError, call_command

from searchapp.indexing.codebook import CodebookMismatch, ensure_codebook_loaded
from searchapp.models import CodebookState, Formula

pytestmark = pytest.mark.django_db


def test_reindex_after_a_model_change_rebuilds_every_corpus_with_the_new_codebook(index_file, capsys):
    index_file()
    index_file(["z^9"], corpus="other", name="other.txt")
    before = set(Formula.objects.values_list("pk", flat=True))
    CodebookState.objects.update(fingerprint="0123456789abcdef")  # as if the index came from another model
    with pytest.raises(CodebookMismatch, match="reindex --sync"):
        ensure_codebook_loaded()
    call_command("reindex", sync=True)
    assert Formula.objects.count() == len(before) and not Formula.objects.filter(pk__in=before).exists()
    ensure_codebook_loaded()  # the new codebook is loaded: no mismatch
    assert "other: 1 index job(s)" in capsys.readouterr().out


def test_reindex_of_an_unknown_corpus_is_a_clear_error():
    with pytest.raises(CommandError, match="no corpus named 'nope'; none is indexed yet"):
        call_command("reindex", corpus=["nope"])
