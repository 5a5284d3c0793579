"""Rankers kept in a folder named after their corpus become rows, their history and decisions whole, and the models
in use move to their rows' folders."""
import importlib
import json

import pytest
from django.apps import apps

from searchapp.models import Corpus, CorpusRanker

pytestmark = pytest.mark.django_db
migration = importlib.import_module("searchapp.migrations.0033_corpus_rankers_from_folders")

BEFORE = {"dense": {"map_prime": 0.5, "p10_prime": 0.3}}
HISTORY = [  # as train_ranker and the loop wrote it, oldest first
    {"at": "2026-01-01T00:00:00+00:00", "queries": 2, "before": BEFORE, "after": BEFORE["dense"], "installed": True},
    {"at": "2026-01-02T00:00:00+00:00", "queries": 3, "before": BEFORE, "after": BEFORE["dense"], "installed": False,
     "outcome": "worse offline"},
    {"at": "2026-01-03T00:00:00+00:00", "queries": 4, "before": BEFORE, "after": BEFORE["dense"], "installed": False,
     "outcome": "discarded", "candidate": "2026-01-03T00:00:00+00:00-aaaaaa"},
    {"at": "2026-01-04T00:00:00+00:00", "queries": 5, "before": BEFORE, "after": BEFORE["dense"], "installed": True,
     "outcome": "installed", "candidate": "2026-01-04T00:00:00+00:00-bbbbbb"},
    {"at": "2026-01-05T00:00:00+00:00", "queries": 6, "before": BEFORE, "after": BEFORE["dense"], "installed": False,
     "outcome": "under test", "candidate": "2026-01-05T00:00:00+00:00-cccccc"},
]
DECISIONS = [{"at": "2026-01-03T12:00:00+00:00", "candidate": HISTORY[2]["candidate"], "decision": "discarded"},
             {"at": "2026-01-04T12:00:00+00:00", "candidate": HISTORY[3]["candidate"], "decision": "installed"}]


def write(folder, report: dict, model: str) -> None:
    folder.mkdir(parents=True)
    (folder / "ranker.json").write_text(json.dumps(report))
    (folder / "model.txt").write_text(model)


def test_each_training_becomes_a_row_and_the_installed_and_candidate_models_their_rows_folders(
        corpus_rankers, django_capture_on_commit_callbacks):
    corpus = Corpus.objects.create(name="test")
    Corpus.objects.create(name="never-trained")
    write(corpus_rankers / "test", {"installed": True, "history": HISTORY, "decisions": DECISIONS}, "installed trees")
    write(corpus_rankers / "test" / "candidate", {"candidate": HISTORY[4]["candidate"]}, "candidate trees")

    with django_capture_on_commit_callbacks(execute=True):
        migration.rankers_from_folders(apps, None)

    rows = list(CorpusRanker.objects.filter(corpus=corpus).order_by("trained_at"))
    assert [row.state for row in rows] == ["replaced", "worse offline", "discarded", "installed", "under test"]
    assert [row.training["queries"] for row in rows] == [2, 3, 4, 5, 6]
    assert not any({"installed", "outcome", "candidate"} & set(row.training) for row in rows)
    assert [row.candidate for row in rows] == [entry.get("candidate", "") for entry in HISTORY]
    assert [row.decision for row in rows] == [None, None, DECISIONS[0], DECISIONS[1], None]
    installed, testing = rows[3], rows[4]
    assert [row.weights for row in rows] == ["", "", "", str(installed.pk), str(testing.pk)]
    assert (corpus_rankers / installed.weights / "model.txt").read_text() == "installed trees"
    assert (corpus_rankers / testing.weights / "model.txt").read_text() == "candidate trees"
    assert sorted(path.name for path in corpus_rankers.iterdir()) == sorted([installed.weights, testing.weights])


def test_an_unreadable_report_stops_the_migration_naming_it(corpus_rankers):
    Corpus.objects.create(name="test")
    write(corpus_rankers / "test", {}, "trees")
    (corpus_rankers / "test" / "ranker.json").write_text("{not json")
    with pytest.raises(RuntimeError, match=r"cannot read .*test/ranker\.json"):
        migration.rankers_from_folders(apps, None)
    assert (corpus_rankers / "test" / "model.txt").is_file()
