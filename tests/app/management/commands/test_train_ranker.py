"""`train_ranker --feedback`: a corpus's judgments train its own ranker, measured before and after, used at once."""
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ml.ranking.ranker import load
from searchapp.models import CorpusRanker, Feedback, Formula

pytestmark = pytest.mark.django_db

def train(*options) -> dict:
    out = StringIO()
    call_command("train_ranker", "--feedback", "--corpus", "test", "--json", *options, stdout=out, stderr=StringIO())
    return json.loads(out.getvalue())


def source(corpus: str = "test") -> str:
    return CorpusRanker.objects.source(corpus)[0]


def test_feedback_trains_the_corpus_ranker_that_its_searches_then_use(judged, corpus_rankers, settings, tmp_path):
    settings.MATHSEARCH_RANKER_DIR = tmp_path / "no-shipped-ranker"
    assert source() == "none"
    report = train()
    [ranker] = CorpusRanker.objects.of("test")
    assert report["installed"] and report["saved_to"] == str(corpus_rankers / ranker.weights)
    assert ranker.state == "installed" and load(corpus_rankers / ranker.weights)
    entry = report["training"]
    assert ranker.training == entry and (entry["queries"], entry["judgments"]) == (3, 9)
    assert set(entry["before"]) == {"dense"} and 0 < entry["after"]["map_prime"] <= 1
    assert len(report["cross_validated"]["folds"]) == 3  # one query per fold: none ranked by a model that saw it
    assert source() == "corpus" and source("other") == "none"
    assert Formula.objects.search("p^2 + q^2 = r^2", corpus="test").fusion == "learned"
    train()
    assert [row.state for row in CorpusRanker.objects.of("test").order_by("pk")] == ["replaced", "installed"]


def test_the_shipped_ranker_is_measured_before_a_corpus_trains_its_own(judged, settings, tmp_path):
    settings.MATHSEARCH_RANKER_DIR = tmp_path / "shipped"
    train("--out", str(settings.MATHSEARCH_RANKER_DIR))
    assert not CorpusRanker.objects.exists()  # saved where --out says, not recorded as the corpus's
    assert set(train()["training"]["before"]) == {"dense", "shipped"}


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
    assert train()["installed"] and source() == "corpus"
    monkeypatch.setattr(training, "beats_before", lambda entry: False)
    out = StringIO()
    call_command("train_ranker", "--feedback", "--corpus", "test", stdout=out, stderr=StringIO())
    assert "not used: on this corpus's judged queries it ranks below the shipped ranker" in out.getvalue()
    assert source() == "corpus"  # the loop's rule: the earlier corpus ranker stays installed
    assert [(row.state, row.weights) for row in CorpusRanker.objects.of("test").order_by("pk")][1] == (
        "worse offline", "")
    assert not train()["installed"] and len(list(corpus_rankers.iterdir())) == 1
