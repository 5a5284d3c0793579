"""The click simulation's parts on a small corpus; the whole benchmark (minutes) runs as `manage.py bench_clicks`."""
import random

import numpy as np
import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from ml.evaluation.click_simulation import ClickModel
from ml.ranking.interleaving import BETTER, WORSE
from searchapp.benchmarks import learning_loop
from searchapp.learning import judged_corpus
from searchapp.models import Feedback, Impression

LATEX = [f"x^{{{n}}} + y^{{{n}}}" for n in range(2, 25)]


def test_half_the_topics_drawn_by_the_seed_receive_the_clicks():
    qrels = {f"B.{n}": {"1": 1} for n in range(1, 30)}
    queries = {topic: "x" for topic in qrels}
    topics = learning_loop.split_topics(qrels, queries, seed=0)
    assert len(topics.clicked) == 15 and len(topics.unclicked) == 14
    assert sorted(topics.clicked + topics.unclicked) == sorted(qrels)
    assert learning_loop.split_topics(qrels, queries, seed=0) == topics != learning_loop.split_topics(qrels, queries, seed=1)


@pytest.mark.django_db
def test_a_session_opens_the_second_page_only_when_it_looks_there_and_its_clicks_name_their_pages(index_file):
    index_file(LATEX, corpus=judged_corpus.CORPUS)
    everything = ClickModel(attractiveness=(1.0,), eta=0.0)  # looks at every rank, clicks every result
    assert learning_loop.one_session(Client(), "x^2 + y^2", lambda formula: 0, everything, np.random.default_rng(0)) == 20
    pages = list(Impression.objects.order_by("offset").values_list("offset", flat=True))
    assert pages == [0, 10]
    assert Feedback.objects.filter(kind="click", impression__isnull=False).count() == 20
    assert sorted(Feedback.objects.values_list("rank", flat=True)) == list(range(1, 21))
    assert len(set(Feedback.objects.values_list("session_key", flat=True))) == 1  # one person
    assert [len(page.seen) for page in Impression.objects.looked_at().order_by("offset")] == [10, 10]  # on screen

    top_only = ClickModel(attractiveness=(1.0,), eta=50.0)  # rank 2 onwards is practically never looked at
    Impression.objects.all().delete()
    assert learning_loop.one_session(Client(), "x^2 + y^2", lambda formula: 0, top_only, np.random.default_rng(0)) == 1
    assert list(Impression.objects.values_list("offset", flat=True)) == [0]


def test_interleaving_decides_for_the_ranking_the_judgments_prefer():
    qrels = {"B.1": {f"r{i}": 3 for i in range(10)} | {f"n{i}": 0 for i in range(10)}}
    good = {"B.1": [f"r{i}" for i in range(10)] + [f"n{i}" for i in range(10)]}
    bad = {"B.1": good["B.1"][::-1]}
    rng, coin = np.random.default_rng(0), random.Random(0)
    assert learning_loop.compare(bad, good, qrels, ClickModel(), rng, coin) == BETTER
    assert learning_loop.compare(good, bad, qrels, ClickModel(), rng, coin) == WORSE


@pytest.mark.django_db
def test_sessions_that_never_click_count_nothing_and_leave_the_peoples_as_they_were(index_file):
    index_file(LATEX, corpus=judged_corpus.CORPUS)
    topics = learning_loop.Topics({"B.1": {}, "B.2": {}}, {"B.1": "x^2 + y^2", "B.2": "x^{5} + y^{5}"},
                                  clicked=["B.1"], unclicked=["B.2"])
    everything = ClickModel(attractiveness=(0.5,), eta=0.5)

    def people_signals(bot_share: float) -> tuple[list, int]:
        Feedback.objects.all().delete()
        Impression.objects.all().delete()
        _, bots = learning_loop.simulate(topics, 6, everything, 0, lambda line: None, bot_share)
        return sorted(Feedback.objects.values_list("formula_id", "rank")), bots

    alone, none = people_signals(0.0)
    beside, bots = people_signals(0.6)
    assert (none, bots) == (0, 9) and beside == alone and alone  # 9 of 15 sessions, the people's clicks the same
    served = Impression.objects.count()
    assert Impression.objects.looked_at().count() < served  # the bots' pages were served, and count nothing


@pytest.mark.parametrize("arguments, message", [(["--sessions", "0"], "--sessions must be at least 1"),
                                                (["--eta", "-1"], "--eta must be 0 or more"),
                                                (["--bot-share", "1"], "--bot-share must be at least 0 and less than 1"),
                                                (["--qrels", "/no/such/qrels"], "not found: /no/such/qrels")])
def test_the_command_refuses_bad_arguments_before_building_anything(arguments, message):
    with pytest.raises(CommandError, match=message):
        call_command("bench_clicks", *arguments)


def test_the_ideal_ranking_of_a_judged_pool_scores_what_its_relevant_formulas_allow():
    qrels = {"B.1": {"a": 3, "b": 0, "c": 2}, "B.2": {"d": 0, "e": 1}}
    topics = learning_loop.split_topics(qrels, {"B.1": "x", "B.2": "y"}, seed=0)
    assert learning_loop.ideal(topics, ["B.1", "B.2"])["p10_prime"] == 0.1  # two relevant of B.1, none of B.2: (0.2 + 0) / 2
    assert learning_loop.ideal(topics, ["B.1"])["map_prime"] == 1.0


def test_feedback_at_best_lifts_the_shown_relevant_formulas_and_leaves_the_unseen_in_their_order():
    qrels = {"B.1": {"a": 0, "b": 3, "c": 2, "d": 2, "e": 1}, "B.2": {"f": 2}}
    topics = learning_loop.Topics(qrels, {"B.1": "x", "B.2": "y"}, clicked=["B.1"], unclicked=["B.2"])
    served = {"B.1": [(doc, 0.0) for doc in ("a", "e", "c", "z", "d", "b")]}  # z is unjudged
    best = learning_loop.reachable(topics, served, {"B.1": {"a", "e", "c", "z"}})  # d and b were never shown
    # c (shown, relevant) first; d, b unseen in their order; a, e, z (shown, not relevant) last: c d b a e
    assert best["map_prime"] == round((1 + 1 + 1) / 3, 4)
    assert best["p10_prime"] == 0.3
    nobody_saw = learning_loop.reachable(topics, served, {"B.1": set()})
    # the served order, z unjudged and so left out (prime metrics): a e c d b
    assert nobody_saw["map_prime"] == round((1 / 3 + 2 / 4 + 3 / 5) / 3, 4)


@pytest.mark.django_db
def test_the_shown_formulas_of_a_topic_are_read_from_its_logged_pages(index_file):
    index_file(LATEX, corpus=judged_corpus.CORPUS)
    topics = learning_loop.Topics({"B.1": {}, "B.2": {}}, {"B.1": "x^2 + y^2 ", "B.2": "z"}, clicked=["B.1"],
                                  unclicked=["B.2"])
    learning_loop.one_session(Client(), "x^2 + y^2", lambda formula: 0, ClickModel(attractiveness=(0.0,), eta=0.0),
                              np.random.default_rng(0))
    shown = Impression.objects.values_list("formula_ids", flat=True)
    expected = {doc for docs in judged_corpus.visual_docs([f for page in shown for f in page]).values() for doc in docs}
    assert len(expected) == 20 and learning_loop.shown_docs(topics) == {"B.1": expected}
