"""A corpus's rankers as rows: at most one installed and one under test per corpus, the newest first, gone with their
corpus. Their QuerySet (searchapp.rankers) is tested by tests/app/test_rankers.py."""
from datetime import UTC, datetime, timedelta

import pytest
from django.db import IntegrityError, transaction

from searchapp.models import Corpus, CorpusRanker

pytestmark = pytest.mark.django_db

TRAINED = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


def ranker(corpus: Corpus, state: str, hours: int = 0) -> CorpusRanker:
    return CorpusRanker.objects.create(corpus=corpus, state=state, trained_at=TRAINED + timedelta(hours=hours),
                                       training={"queries": 3})


@pytest.mark.parametrize("state", [CorpusRanker.State.INSTALLED, CorpusRanker.State.UNDER_TEST])
def test_a_corpus_has_at_most_one_ranker_installed_and_one_under_test(state):
    first, second = Corpus.objects.create(name="a"), Corpus.objects.create(name="b")
    ranker(first, state)
    with pytest.raises(IntegrityError), transaction.atomic():
        ranker(first, state, hours=1)
    ranker(second, state)
    ranker(first, CorpusRanker.State.DISCARDED)
    ranker(first, CorpusRanker.State.DISCARDED)
    assert CorpusRanker.objects.filter(corpus=first).count() == 3


def test_the_newest_ranker_comes_first_and_all_go_with_their_corpus():
    corpus = Corpus.objects.create(name="a")
    old, new = ranker(corpus, "replaced"), ranker(corpus, "installed", hours=2)
    assert list(corpus.rankers.all()) == [new, old]
    assert str(new) == f"{corpus.pk}: installed ranker trained 2026-03-01 11:30"
    corpus.delete()
    assert not CorpusRanker.objects.exists()
