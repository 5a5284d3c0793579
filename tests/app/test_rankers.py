"""A corpus's rankers: rows that survive a rename, folders named by the row that go with a deleted corpus."""
import pytest

from searchapp.live.loop import learning_round
from searchapp.models import Corpus, CorpusRanker, Formula
from tests.app.factories import log_page

pytestmark = pytest.mark.django_db


def installed_ranker(corpus: str) -> CorpusRanker:
    """Trains the corpus's candidate and has interleaving install it, as the loop does: ten people's clicks, which
    are new feedback for the next training too."""
    candidate = learning_round(corpus, retrain_after=5).trained["candidate"]
    formulas = list(Formula.objects.filter(corpus__name=corpus)[:2])
    for person in range(10):
        log_page("p^2 + q^2 = r^2", formulas, [1], teams="ab", candidate=candidate, session=f"{candidate}-{person}")
    assert learning_round(corpus, min_compared=5).decision["decision"] == "installed"
    return CorpusRanker.objects.get(candidate=candidate)


def test_a_renamed_corpus_keeps_its_history_and_its_searches_its_installed_ranker(judged, no_shipped_ranker,
                                                                                 corpus_rankers):
    ranker = installed_ranker("test")
    folders = sorted(path.name for path in corpus_rankers.iterdir())
    assert folders == [ranker.weights] == [str(ranker.pk)]  # named by the row, not the corpus
    history = CorpusRanker.objects.history("test")
    corpus = Corpus.objects.get(name="test")
    corpus.name = "renamed"
    corpus.save()
    assert sorted(path.name for path in corpus_rankers.iterdir()) == folders  # nothing changed on disk
    assert CorpusRanker.objects.history("renamed") == history and CorpusRanker.objects.history("test") == []
    assert CorpusRanker.objects.source("renamed") == ("corpus", CorpusRanker.objects.ranker_for("renamed"))
    assert Formula.objects.search("p^2 + q^2 = r^2", corpus="renamed").fusion == "learned"


def test_deleting_a_corpus_leaves_no_folder_of_its_rankers_once_committed(judged, no_shipped_ranker, corpus_rankers,
                                                                          index_file,
                                                                          django_capture_on_commit_callbacks):
    installed_ranker("test")
    learning_round("test", retrain_after=5)  # a candidate under test too: two folders
    index_file(["z^9", "z^8"], corpus="kept", name="kept.txt")
    kept = CorpusRanker.objects.record_training(Corpus.objects.get(name="kept").pk, {"at": "2026-01-02T03:04:05+00:00"})
    assert len(list(corpus_rankers.iterdir())) == 2
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        Corpus.objects.get(name="test").delete()
    assert len(list(corpus_rankers.iterdir())) == 2  # not before the deletion is committed: a rolled-back one keeps them
    for callback in callbacks:
        callback()
    assert list(corpus_rankers.iterdir()) == [] and list(CorpusRanker.objects.all()) == [kept]


def test_a_training_worse_offline_is_recorded_without_weights(index_file, corpus_rankers):
    index_file(["x^2"])
    corpus = Corpus.objects.get()
    worse = CorpusRanker.objects.record_training(corpus.pk, {"at": "2026-01-02T03:04:05+00:00", "queries": 2})
    assert (worse.state, worse.weights, worse.candidate) == ("worse offline", "", "")
    assert CorpusRanker.objects.history("test") == [{"at": "2026-01-02T03:04:05+00:00", "queries": 2,
                                                     "outcome": "worse offline"}]
    assert CorpusRanker.objects.last_trained_at("test").isoformat() == "2026-01-02T03:04:05+00:00"
    assert not corpus_rankers.exists()
