"""The learning loop's rounds: a candidate trained once feedback is due, held until interleaving settles it, then
installed or discarded, every step recorded in the corpus's rankers; one round at a time per corpus."""
import psycopg
import pytest
from django.db import connection

from searchapp.learning import training
from searchapp.live.loop import LEARN_LOCK_CLASS, Round, learning_round
from searchapp.models import Corpus, CorpusRanker, Formula
from tests.app.factories import log_page
from tests.conftest import database_url

pytestmark = pytest.mark.django_db


def interleaved_clicks(candidate: str, wins: int, losses: int, ties: int = 0) -> None:
    """Interleaved pages of the test corpus whose clicks credit the candidate (team b) `wins` times, the ranker in
    use `losses` times, and both alike `ties` times, each page a person of its own (one person's clicks on a formula
    are one signal for the next training)."""
    formulas = list(Formula.objects.filter(corpus__name="test")[:4])
    pages = [clicked for clicked, count in (([1], wins), ([0], losses), ([0, 1], ties)) for _ in range(count)]
    for person, clicked in enumerate(pages):
        log_page("p^2 + q^2 = r^2", formulas, clicked, teams="abab", candidate=candidate, session=f"{candidate}-{person}")


def rankers() -> list[tuple[str, str]]:
    """The test corpus's rankers, oldest first: (state, folder of its weights)."""
    return list(CorpusRanker.objects.of("test").order_by("pk").values_list("state", "weights"))


def source() -> str:
    return CorpusRanker.objects.source("test")[0]


def test_enough_new_feedback_trains_a_candidate_that_waits_for_interleaving(judged, no_shipped_ranker, corpus_rankers):
    assert learning_round("test", retrain_after=100) == Round("test")  # 9 judgments are not enough yet
    done = learning_round("test", retrain_after=5)
    assert done.trained["outcome"] == "under test" and done.decision is None
    assert CorpusRanker.objects.candidate_for("test").id == done.trained["candidate"]
    assert source() == "none"  # searches keep what they had until interleaving agrees
    assert CorpusRanker.objects.history("test") == [done.trained]
    [(state, weights)] = rankers()
    assert state == "under test" and (corpus_rankers / weights / "model.txt").is_file()
    assert learning_round("test", retrain_after=5) == Round("test")  # under test: no new training, no decision yet


def test_a_candidate_that_interleaving_shows_better_is_installed_and_recorded(judged, no_shipped_ranker, corpus_rankers):
    candidate = learning_round("test", retrain_after=5).trained["candidate"]
    interleaved_clicks(candidate, wins=3, losses=1)
    assert learning_round("test", min_compared=5).decision is None  # 4 compared: too few
    interleaved_clicks(candidate, wins=8, losses=0, ties=2)
    decision = learning_round("test", min_compared=5).decision
    assert decision["decision"] == "installed" and (decision["wins"], decision["losses"], decision["ties"]) == (11, 1, 2)
    assert decision["interval"][0] > 0
    assert source() == "corpus" and CorpusRanker.objects.candidate_for("test") is None
    assert CorpusRanker.objects.decisions("test") == [decision]
    assert [entry["outcome"] for entry in CorpusRanker.objects.history("test")] == ["installed"]


def test_a_candidate_that_interleaving_shows_worse_or_no_better_is_discarded(judged, no_shipped_ranker, corpus_rankers,
                                                                            django_capture_on_commit_callbacks):
    candidate = learning_round("test", retrain_after=5).trained["candidate"]
    interleaved_clicks(candidate, wins=1, losses=9)
    with django_capture_on_commit_callbacks(execute=True):
        decision = learning_round("test", retrain_after=5, min_compared=5).decision
    assert decision["decision"] == "discarded" and decision["interval"][1] < 0
    assert source() == "none" and CorpusRanker.objects.candidate_for("test") is None
    [(state, weights)] = rankers()
    assert state == "discarded" and weights == ""
    retrained = learning_round("test", retrain_after=5).trained  # the clicks since are new feedback
    assert retrained["candidate"] != candidate
    interleaved_clicks(retrained["candidate"], wins=5, losses=5)
    assert learning_round("test", min_compared=5, max_compared=20).decision is None
    with django_capture_on_commit_callbacks(execute=True):
        decision = learning_round("test", min_compared=5, max_compared=10).decision
    assert decision["decision"] == "discarded" and "no difference" in decision["why"]
    assert len(CorpusRanker.objects.decisions("test")) == 2
    assert rankers() == [("discarded", ""), ("discarded", "")]
    assert not any(corpus_rankers.iterdir())  # their weights removed once that was committed


def test_a_candidate_worse_offline_is_recorded_and_dropped(judged, no_shipped_ranker, corpus_rankers, monkeypatch):
    monkeypatch.setattr(training, "beats_before", lambda entry: False)
    done = learning_round("test", retrain_after=5)
    assert done.trained["outcome"] == "worse offline" and "candidate" not in done.trained
    assert CorpusRanker.objects.candidate_for("test") is None and not corpus_rankers.exists()  # no weights kept
    assert CorpusRanker.objects.history("test") == [done.trained]


def test_a_candidate_installed_replaces_the_ranker_installed_before(judged, no_shipped_ranker, corpus_rankers,
                                                                   django_capture_on_commit_callbacks):
    first = learning_round("test", retrain_after=5).trained["candidate"]
    interleaved_clicks(first, wins=10, losses=0)
    assert learning_round("test", min_compared=5).decision["decision"] == "installed"
    [(_, installed)] = rankers()
    second = learning_round("test", retrain_after=5).trained["candidate"]  # the clicks since are new feedback
    interleaved_clicks(second, wins=10, losses=0)
    with django_capture_on_commit_callbacks(execute=True):
        assert learning_round("test", min_compared=5).decision["candidate"] == second
    assert [state for state, _ in rankers()] == ["replaced", "installed"]
    assert not (corpus_rankers / installed).exists()
    assert CorpusRanker.objects.ranker_for("test") is not None


def test_a_round_that_finds_the_corpus_locked_does_nothing(index_file):
    index_file(["x^2"])
    other = psycopg.connect(database_url(connection.settings_dict), autocommit=True)
    try:
        other.execute("SELECT pg_advisory_lock(%s, %s)", [LEARN_LOCK_CLASS, Corpus.objects.get(name="test").pk])
        assert learning_round("test") == Round("test", busy=True)
        other.execute("SELECT pg_advisory_unlock_all()")  # at once: a closed session's locks go a moment later
    finally:
        other.close()
    assert learning_round("test") == Round("test")  # free again: a round that finds nothing to do
