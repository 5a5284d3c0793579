"""The learning loop measured end to end (issue 34): simulated people search the ARQMath-1 benchmark corpus through
the JSON API, click as a position-based click model says the development judgments would make them
(`ml.evaluation.click_simulation`), and the loop learns in between, as the beat task does: position bias estimated,
a candidate ranker trained, interleaved and installed or dropped. The judgments then say what changed.

Topics are split in two, grouped by topic: people search and click only the first half. The re-asked (clicked)
topics measure what the loop learned for them; the others measure what it did to queries nobody clicked.

Beside the people, a share of the sessions can be traffic that never clicks (`bot_share`): API clients and
browsers reloading a results page, searching any topic. Their sessions draw from a random stream of their own, so the
people's sessions are the same at every share, and what the loop learned should not change with it.
"""
from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np
from django.conf import settings
from django.test import Client, override_settings

from corpora.ranking import rank_by_score
from ml.evaluation.bootstrap import paired_intervals
from ml.evaluation.click_simulation import ClickModel
from ml.evaluation.metrics import RELEVANT_GRADE, evaluate, rounded
from ml.ranking.interleaving import BETTER, UNDECIDED, WORSE, credit, outcome, team_draft, verdict
from ml.retrieval.score_fusion import FUSIONS
from searchapp.benchmarks import arqmath1
from searchapp.learning import judged_corpus
from searchapp.live.loop import learn_all
from searchapp.models import CorpusRanker, Feedback, Impression
from searchapp.search.ranking import LEARNED

SHOWN = 10
"""A results page, as the site shows it."""
PAGES = 2
"""People look at most at two pages."""
ROUND_EVERY = 100
"""Sessions between two learning rounds (the beat task's period, in searches)."""
DEPTH = 1000
"""How deep each topic's ranking is scored, as `benchmark arqmath1` scores it."""
MIN_OFFLINE_GAP = 0.03
"""Pairs of rankers whose MAP′ differ by at least this much are the comparisons interleaving must get right."""
COMPARISONS_PER_PAIR = 20
METRICS = ("map_prime", "p10_prime", "ndcg_prime")
BOT_STREAM = 1
"""The random stream of the sessions that never click, apart from the people's (`numpy.random.default_rng([seed, 1])`)."""
MAX_RELOADS = 3
"""A reloading session loads its results page one to this many times."""


@dataclass(frozen=True)
class Topics:
    qrels: dict[str, dict[str, int]]
    queries: dict[str, str]
    clicked: list[str]
    unclicked: list[str]


def benchmark(data_dir: Path, qrels_path: Path, sessions: int, seed: int, model: ClickModel,
              progress: Callable[[str], None] = print, bot_share: float = 0.0) -> dict:
    """Build (or reuse) the corpus, measure, simulate `sessions` people's searches with the loop running, and as many
    sessions that never click as make `bot_share` of all (in [0, 1)), measure again."""
    qrels, queries = judged_corpus.read_inputs(data_dir, qrels_path)
    judged_corpus.ensure_corpus(data_dir, progress)
    topics = split_topics(qrels, queries, seed)
    Feedback.objects.all().delete()  # a kept benchmark database starts every run without feedback
    Impression.objects.all().delete()
    with tempfile.TemporaryDirectory() as rankers, override_settings(
            MATHSEARCH_CORPUS_RANKERS_DIR=Path(rankers), MATHSEARCH_FEEDBACK_PER_MINUTE=10**9):
        CorpusRanker.objects.all().delete()  # and without rankers (their folders went with an earlier run's)
        before, served = measure(topics)
        agreement = interleaving_agreement(topics, model, seed, progress)
        progress(f"before: clicked P′@10 {before['clicked']['p10_prime']:.4f}, "
                 f"unclicked P′@10 {before['unclicked']['p10_prime']:.4f}; simulating {sessions} sessions …")
        rounds, bots = simulate(topics, sessions, model, seed, progress, bot_share)
        after, _ = measure(topics)
        best = reachable(topics, served, shown_docs(topics))
    return {**report(topics, sessions, model, before, after, best, rounds, agreement), "bot_share": bot_share,
            "bot_sessions": bots}


def split_topics(qrels: dict, queries: dict[str, str], seed: int) -> Topics:
    """Half the judged topics (rounded up), drawn by `seed`, receive the clicks."""
    names = sorted(qrels)
    random.Random(seed).shuffle(names)
    half = (len(names) + 1) // 2
    return Topics(qrels, {topic: queries[topic] for topic in qrels}, sorted(names[:half]), sorted(names[half:]))


def measure(topics: Topics) -> tuple[dict[str, dict], dict[str, list[tuple[str, float]]]]:
    """MAP′, P′@10 and nDCG′ (with per-topic values) of each half as the search ranks it for everyone now: in the
    site's default order, by the ranker the corpus uses (the shipped one, or one the loop installed); and that run."""
    run, _ = arqmath1.run_queries(topics.qrels, topics.queries, k=DEPTH, fusion=LEARNED)
    return {half: evaluate({t: run[t] for t in names}, {t: topics.qrels[t] for t in names})
            for half, names in (("clicked", topics.clicked), ("unclicked", topics.unclicked))}, run


def simulate(topics: Topics, sessions: int, model: ClickModel, seed: int, progress: Callable[[str], None],
             bot_share: float = 0.0) -> tuple[list[dict], int]:
    """Each session is a new person (a new client, so a new session cookie) who searches one clicked topic through
    the JSON API and clicks the first page as `model` says; after each, the sessions that never click owed by then
    to make `bot_share` of all; a learning round every ROUND_EVERY people. Returns the rounds and the bots' sessions."""
    rng, traffic = np.random.default_rng(seed), np.random.default_rng([seed, BOT_STREAM])
    grades = Grades(topics.qrels)
    everything = sorted(topics.qrels)
    rounds, bots = [], 0
    for number in range(1, sessions + 1):
        topic = topics.clicked[int(rng.integers(len(topics.clicked)))]
        one_session(Client(), topics.queries[topic], grades.of(topic), model, rng)
        for _ in range(round(number * bot_share / (1 - bot_share)) - bots):
            bot_session(Client(), topics.queries[everything[int(traffic.integers(len(everything)))]], traffic)
            bots += 1
        if number % ROUND_EVERY == 0 or number == sessions:
            (done,) = learn_all()  # the benchmark database holds this one corpus
            rounds.append({"sessions": number, "trained": done.trained, "decision": done.decision})
            if done.trained or done.decision:
                progress(f"{number} sessions: trained {done.trained and done.trained['outcome']}, "
                         f"decided {done.decision and done.decision['decision']}")
    return rounds, bots


def one_session(client: Client, query: str, grade_of: Callable[[int], int | None], model: ClickModel,
                rng: np.random.Generator) -> int:
    """One person's search: the first page, the second too if they look that far (under (1/rank)^η, half of the
    people with η = 1), what was on their screen (every result down to the deepest they looked at) and their clicks,
    sent as the page sends them; returns how many clicks."""
    examined = model.examined(PAGES * SHOWN, rng)
    clicks = 0
    for page in range(PAGES):
        if not examined[page * SHOWN:].any():
            break
        params: dict[str, str | int] = {"q": query, "corpus": judged_corpus.CORPUS, "k": SHOWN, "offset": page * SHOWN}
        shown = client.get("/api/search", params).json()
        results = shown["results"]
        seen = examined[page * SHOWN:page * SHOWN + len(results)]
        if seen.any():
            deepest = int(np.flatnonzero(seen)[-1])
            client.post("/api/looks", {"impression_id": shown["impression_id"],
                                       "formula_ids": [result["id"] for result in results[:deepest + 1]]},
                        content_type="application/json")
        for position in model.clicked([grade_of(result["id"]) for result in results], seen, rng):
            result = results[position - 1]
            client.post("/api/feedback", {"query": query, "formula_id": result["id"], "rank": result["rank"],
                                          "kind": Feedback.Kind.CLICK, "fusion": shown["fusion"],
                                          "impression_id": shown["impression_id"]}, content_type="application/json")
            clicks += 1
    return clicks


def bot_session(client: Client, query: str, rng: np.random.Generator) -> None:
    """A session that never clicks: an API client's search, or a browser that loads a results page one to
    MAX_RELOADS times (keeping its cookie, as a reload does, and running no script)."""
    searched = {"q": query, "corpus": judged_corpus.CORPUS}
    if rng.random() < 0.5:
        client.get("/api/search", {**searched, "k": str(SHOWN)})
        return
    for _ in range(int(rng.integers(1, MAX_RELOADS + 1))):
        client.get("/", searched)


class Grades:
    """The development grade of a formula for a topic: the best of the visual ids it stands for, None if unjudged."""

    def __init__(self, qrels: dict[str, dict[str, int]]):
        self.qrels = qrels
        self.docs: dict[int, list[str]] = {}

    def of(self, topic: str) -> Callable[[int], int | None]:
        judged = self.qrels[topic]

        def grade(formula_id: int) -> int | None:
            if formula_id not in self.docs:
                self.docs.update(judged_corpus.visual_docs([formula_id]))
            found = [judged[doc] for doc in self.docs[formula_id] if doc in judged]
            return max(found) if found else None
        return grade


def interleaving_agreement(topics: Topics, model: ClickModel, seed: int, progress: Callable[[str], None]) -> dict:
    """How often team-draft interleaving, credited by simulated clicks and decided by the loop's own rule, picks
    the ranker the judgments say is better.

    The rankers are the search's own orders (the learned ranker and each dense fusion) of all judged topics. Every
    pair whose MAP′ differ by at least MIN_OFFLINE_GAP is compared COMPARISONS_PER_PAIR times. A comparison
    interleaves impressions of random topics and, every ROUND_EVERY of them (a learning round), asks the loop's
    `verdict` with the settings' minimum; it ends when the verdict is given or after the settings' maximum of
    compared impressions (undecided: not a pick)."""
    all_topics = sorted(topics.qrels)
    rankings, scores = {}, {}
    for order in (LEARNED, *FUSIONS):
        run, _ = arqmath1.run_queries(topics.qrels, topics.queries, k=DEPTH, fusion=order)
        scores[order] = evaluate(run, topics.qrels)["map_prime"]
        rankings[order] = {topic: [doc for doc, _ in run[topic]] for topic in all_topics}
    rng, coin = np.random.default_rng(seed), random.Random(seed)
    pairs = []
    for a, b in combinations(rankings, 2):
        gap = scores[b] - scores[a]
        if abs(gap) < MIN_OFFLINE_GAP:
            continue
        verdicts = [compare(rankings[a], rankings[b], topics.qrels, model, rng, coin)
                    for _ in range(COMPARISONS_PER_PAIR)]
        better = BETTER if gap > 0 else WORSE
        pairs.append({"a": a, "b": b, "map_prime_gap": round(gap, 4), "comparisons": len(verdicts),
                      "right": sum(v == better for v in verdicts), "undecided": sum(v == UNDECIDED for v in verdicts)})
    compared, right = sum(p["comparisons"] for p in pairs), sum(p["right"] for p in pairs)
    progress(f"interleaving picked the better ranker in {right} of {compared} comparisons")
    return {"rate": round(right / compared, 4) if compared else None, "comparisons": compared, "pairs": pairs,
            "map_prime": {order: round(value, 4) for order, value in scores.items()},
            "min_compared": settings.MATHSEARCH_INTERLEAVE_MIN_COMPARED,
            "max_compared": settings.MATHSEARCH_INTERLEAVE_MAX_COMPARED}


def compare(a: dict[str, list[str]], b: dict[str, list[str]], qrels: dict[str, dict[str, int]], model: ClickModel,
            rng: np.random.Generator, coin: random.Random) -> str:
    """One interleaving comparison of rankings `a` and `b` (per topic), as the loop runs and decides it: B's verdict."""
    names = sorted(qrels)
    credits: list[int] = []
    while len(credits) < settings.MATHSEARCH_INTERLEAVE_MAX_COMPARED:
        for _ in range(ROUND_EVERY):
            topic = names[int(rng.integers(len(names)))]
            shown, teams = team_draft(a[topic], b[topic], coin, PAGES * SHOWN)
            clicks = model.clicks([qrels[topic].get(doc) for doc in shown], rng)
            if clicks:
                credits.append(credit(teams, [rank - 1 for rank in clicks]))
        said = verdict(outcome(credits), settings.MATHSEARCH_INTERLEAVE_MIN_COMPARED)
        if said != UNDECIDED:
            return said
    return UNDECIDED


def ideal(topics: Topics, names: list[str]) -> dict:
    """The best any ranking could score on these topics: their judged formulas by grade. Judged pools hold few
    relevant formulas for some topics, so P′@10 stops well below 1."""
    run = {topic: rank_by_score((doc, float(grade)) for doc, grade in topics.qrels[topic].items()) for topic in names}
    return rounded(evaluate(run, {topic: topics.qrels[topic] for topic in names}))


def shown_docs(topics: Topics) -> dict[str, set[str]]:
    """Per clicked topic, the judged visual ids (or distractor ids) of every formula its logged pages showed."""
    shown = {}
    for topic in topics.clicked:
        pages = Impression.objects.filter(query=topics.queries[topic].strip()).values_list("formula_ids", flat=True)
        formulas = sorted({formula for page in pages for formula in page})
        shown[topic] = {doc for docs in judged_corpus.visual_docs(formulas).values() for doc in docs}
    return shown


def reachable(topics: Topics, served: dict[str, list[tuple[str, float]]], shown: dict[str, set[str]]) -> dict:
    """The best that people's feedback could make of the clicked topics' `served` rankings: feedback reaches only
    results people were `shown`, so each topic's shown relevant formulas (grade ≥ 2, best first) go to the top and its
    other shown results to the bottom, while the results nobody saw keep their order between them. A bound on
    MAP′ and P′@10 while the ranker stays (one the loop installs may reorder the unseen), tighter than `ideal` when
    relevant formulas stand below the pages people read."""
    best = {}
    for topic in topics.clicked:
        judged, seen = topics.qrels[topic], shown[topic]
        docs = [doc for doc, _ in served[topic]]
        found = sorted((doc for doc in docs if doc in seen and judged.get(doc, 0) >= RELEVANT_GRADE),
                       key=lambda doc: -judged[doc])
        passed = [doc for doc in docs if doc in seen and judged.get(doc, 0) < RELEVANT_GRADE]
        ranked = found + [doc for doc in docs if doc not in seen] + passed
        best[topic] = [(doc, float(len(ranked) - rank)) for rank, doc in enumerate(ranked)]
    return rounded(evaluate(best, {topic: topics.qrels[topic] for topic in topics.clicked}))


def report(topics: Topics, sessions: int, model: ClickModel, before: dict, after: dict, best: dict,
           rounds: list[dict], agreement: dict) -> dict:
    halves: dict[str, dict] = {}
    for half in ("clicked", "unclicked"):
        delta = paired_intervals(after[half]["per_topic"], before[half]["per_topic"], METRICS)
        halves[half] = {"topics": len(getattr(topics, half)), "before": rounded(before[half]),
                        "after": rounded(after[half]), "ideal": ideal(topics, getattr(topics, half)),
                        **({"reachable": best} if half == "clicked" else {}),
                        "delta": {m: [round(d.mean, 4), round(d.lo, 4), round(d.hi, 4)] for m, d in delta.items()}}
    return {
        "sessions": sessions, "click_model": model.describe(), "shown": SHOWN, "pages": PAGES, "round_every": ROUND_EVERY,
        "clicked_p10_before": halves["clicked"]["before"]["p10_prime"],
        "clicked_p10_after": halves["clicked"]["after"]["p10_prime"],
        "clicked_p10_ideal": halves["clicked"]["ideal"]["p10_prime"],
        "clicked_p10_reachable": best["p10_prime"],
        "unclicked_p10_before": halves["unclicked"]["before"]["p10_prime"],
        "unclicked_p10_after": halves["unclicked"]["after"]["p10_prime"],
        "interleaving_agreement": agreement["rate"],
        "clicked": halves["clicked"], "unclicked": halves["unclicked"],
        "clicks": Feedback.objects.filter(kind=Feedback.Kind.CLICK).count(),
        "learning_rounds": rounds, "interleaving": agreement,
    }
