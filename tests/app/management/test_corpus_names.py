import pytest
from django.core.management.base import CommandError

from searchapp.management.corpus_names import require_corpus
from searchapp.models import Corpus

pytestmark = pytest.mark.django_db


def test_an_unknown_corpus_is_a_command_error_naming_the_corpora_there_are():
    with pytest.raises(CommandError, match="^no corpus named 'nope'; none is indexed yet$"):
        require_corpus("nope")
    Corpus.objects.create(name="wiki")
    Corpus.objects.create(name="arqmath")
    with pytest.raises(CommandError, match="^no corpus named 'wikki'; the corpora are arqmath, wiki$"):
        require_corpus("wikki")
    require_corpus("wiki")  # a corpus of that name: nothing to say
