"""The corpora's QuerySet verbs: which corpora searches accept, and what an unknown name's error says."""
import pytest

from searchapp.models import Corpus
from searchapp.models.corpora import NAMED_CORPORA

pytestmark = pytest.mark.django_db


def test_only_a_corpus_with_a_post_stored_is_searchable(index_file):
    index_file(corpus="stored")
    Corpus.objects.create(name="empty")
    assert list(Corpus.objects.searchable().values_list("name", flat=True)) == ["stored"]


def test_an_unknown_name_is_told_with_the_names_there_are():
    assert Corpus.objects.unknown("math") == "no corpus named 'math'; none is indexed yet"
    Corpus.objects.bulk_create(Corpus(name=f"c{i:02}") for i in range(NAMED_CORPORA + 1))
    assert Corpus.objects.unknown("c00") == ""
    listed = ", ".join(f"c{i:02}" for i in range(NAMED_CORPORA))
    assert Corpus.objects.unknown("math") == f"no corpus named 'math'; the corpora are {listed}, …"
