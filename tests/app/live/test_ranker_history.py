"""A corpus's rankers as the staff Rankers page reads them: what a training is measured against, its candidate."""
import pytest

from searchapp.live.loop import learning_round
from searchapp.live.ranker_history import under_test, without_it


def test_without_the_corpus_ranker_means_the_shipped_ranker_when_measured_else_dense_fusion():
    dense, shipped = {"map_prime": 0.5}, {"map_prime": 0.7}
    assert without_it({"before": {"dense": dense, "shipped": shipped}}) == ("the shipped ranker", shipped)
    assert without_it({"before": {"dense": dense}}) == ("dense fusion", dense)


@pytest.mark.django_db
def test_the_candidate_under_test_comes_with_its_training_entry_and_an_empty_interleaving(judged, no_shipped_ranker,
                                                                                          settings):
    assert under_test("test") is None
    trained = learning_round("test", retrain_after=5).trained
    shown = under_test("test")
    assert shown.candidate == trained["candidate"] and shown.training == trained
    assert (shown.outcome.wins, shown.outcome.losses, shown.outcome.ties) == (0, 0, 0)
    assert (shown.share, shown.min_compared, shown.max_compared) == (
        settings.MATHSEARCH_INTERLEAVE_SHARE, settings.MATHSEARCH_INTERLEAVE_MIN_COMPARED,
        settings.MATHSEARCH_INTERLEAVE_MAX_COMPARED)
