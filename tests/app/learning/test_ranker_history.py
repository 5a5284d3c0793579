"""A corpus's ranker report as the staff Rankers page reads it: its trainings, its decisions, its candidate."""
import json

import pytest

from searchapp.learning.background import learning_round
from searchapp.learning.ranker_history import corpus_decisions, corpus_history, ranker_report, under_test, without_it


def write_report(directory, report: dict) -> None:
    directory.mkdir(parents=True)
    (directory / "ranker.json").write_text(json.dumps(report))


def test_a_folder_without_a_readable_report_is_an_empty_record(tmp_path):
    assert ranker_report(tmp_path / "never-trained") == {}
    write_report(tmp_path / "broken", {})
    (tmp_path / "broken" / "ranker.json").write_text("{not json")
    assert ranker_report(tmp_path / "broken") == {}


def test_history_and_decisions_are_read_from_the_corpus_folder_and_empty_before_any_training(corpus_rankers):
    assert corpus_history("test") == [] and corpus_decisions("test") == []
    write_report(corpus_rankers / "test", {"history": [{"candidate": "1"}], "decisions": [{"decision": "installed"}]})
    assert corpus_history("test") == [{"candidate": "1"}]
    assert corpus_decisions("test") == [{"decision": "installed"}]
    assert corpus_history("other") == []


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
