"""`train_ranker --feedback`: a corpus's judgments train its own ranker, measured before and after, used at once."""
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ml.ranking.ranker import load
from searchapp.models import Feedback, Formula
from searchapp.search.ranking import ranker_source

pytestmark = pytest.mark.django_db

def train(*options) -> dict:
    out = StringIO()
    call_command("train_ranker", "--feedback", "--corpus", "test", "--json", *options, stdout=out, stderr=StringIO())
    return json.loads(out.getvalue())


def test_feedback_trains_the_corpus_ranker_that_its_searches_then_use(judged, corpus_rankers, settings, tmp_path):
    settings.MATHSEARCH_RANKER_DIR = tmp_path / "no-shipped-ranker"
    assert ranker_source("test")[0] == "none"
    report = train()
    assert report["saved_to"] == str(corpus_rankers / "test") and load(corpus_rankers / "test")
    [entry] = report["history"]
    assert (entry["queries"], entry["judgments"]) == (3, 9)
    assert set(entry["before"]) == {"dense"} and 0 < entry["after"]["map_prime"] <= 1
    assert len(report["cross_validated"]["folds"]) == 3  # one query per fold: none ranked by a model that saw it
    assert ranker_source("test")[0] == "corpus" and ranker_source("other")[0] == "none"
    assert Formula.objects.search("p^2 + q^2 = r^2", corpus="test").fusion == "learned"
    assert len(train()["history"]) == 2  # each training adds to the corpus's record


def test_the_shipped_ranker_is_measured_before_a_corpus_trains_its_own(judged, settings, tmp_path):
    settings.MATHSEARCH_RANKER_DIR = tmp_path / "shipped"
    train("--out", str(settings.MATHSEARCH_RANKER_DIR))
    assert set(train()["history"][0]["before"]) == {"dense", "shipped"}


@pytest.mark.parametrize("options, message", [
    (["--feedback"], "--feedback and --corpus go together"),
    ([], "give --qrels"),
    (["--feedback", "--corpus", "nope"], "no corpus named 'nope'; none is indexed yet"),
    (["--arqmath2", "--feedback", "--corpus", "nope"], "--arqmath2 adds training topics to the development topics"),
])
def test_bad_options_are_refused_in_one_line(db, options, message):
    with pytest.raises(CommandError, match=message):
        call_command("train_ranker", *options, stdout=StringIO())


def test_a_corpus_without_enough_judged_queries_is_refused(index_file):
    index_file()
    Feedback.objects.create(query="x^2", formula=Formula.objects.first(), kind="relevant", rank=1)
    with pytest.raises(CommandError, match="1 queries with a 'relevant' judgment; at least 2"):
        call_command("train_ranker", "--feedback", "--corpus", "test", stdout=StringIO())


def test_a_ranker_too_small_to_split_says_it_orders_as_the_dense_fusion(judged, corpus_rankers, settings, tmp_path):
    settings.MATHSEARCH_RANKER_DIR = tmp_path / "no-shipped-ranker"
    out = StringIO()
    call_command("train_ranker", "--feedback", "--corpus", "test", stdout=out, stderr=StringIO())
    assert "the trees made no split (a leaf needs at least 20 judged results)" in out.getvalue()  # 9 judgments
    assert "feature importance" not in out.getvalue()


def test_a_corpus_ranker_worse_than_the_shipped_one_is_recorded_but_not_used(judged, corpus_rankers, settings,
                                                                           tmp_path, monkeypatch):
    from searchapp.learning import training

    settings.MATHSEARCH_RANKER_DIR = tmp_path / "shipped"
    train("--out", str(settings.MATHSEARCH_RANKER_DIR))  # a ranker to ship
    assert train()["installed"] and ranker_source("test")[0] == "corpus"
    monkeypatch.setattr(training, "beats_before", lambda entry: False)
    out = StringIO()
    call_command("train_ranker", "--feedback", "--corpus", "test", stdout=out, stderr=StringIO())
    assert "not used: on this corpus's judged queries it ranks below the shipped ranker" in out.getvalue()
    assert ranker_source("test")[0] == "shipped"  # the earlier corpus ranker is withdrawn too
    assert not (corpus_rankers / "test" / "model.txt").exists()
    history = json.loads((corpus_rankers / "test" / "ranker.json").read_text())["history"]
    assert [entry["installed"] for entry in history] == [True, False]
