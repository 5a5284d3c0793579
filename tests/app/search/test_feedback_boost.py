"""Queries asked again get better: people's judgments and clicks move a query's results, a bounded amount."""
import numpy as np
import pytest

from searchapp.models import Feedback, Formula, Post
from searchapp.search import feedback_boost
from searchapp.search.feedback_boost import MAX_CLICK_WEIGHT, REACH, Evidence, boosted, click_weight, tally
from tests.app.factories import index_thread_pages, log_page

QUERY = "x^2 + y^2 = z^2"


def rank_of(latex: str, query: str = QUERY, **options) -> int:
    hits = Formula.objects.search(query, k=10, fusion="f1", **options).hits
    return next(hit.rank for hit in hits if hit.formula.latex == latex)


def judge(latex: str, kind: str, people: int = 1, query: str = QUERY, rank: int = 5) -> Formula:
    formula = Formula.objects.get(latex=latex)
    for person in range(people):
        Feedback.objects.create(query=query, formula=formula, kind=kind, rank=rank, session_key=f"{kind}-{person}")
    return formula


def test_a_persons_judgment_replaces_their_clicks_and_their_clicks_count_once_at_the_deepest_rank():
    rows = [(1, None, "s1", "click", 2, None), (1, None, "s1", "click", 9, None), (1, None, "s2", "relevant", 3, None),
            (1, None, "s2", "click", 7, None), (1, None, "s3", "impression", 1, None),
            (2, 7, "old", "not_relevant", 1, None), (2, 7, "", "relevant", 1, None),
            (3, None, "s4", "click", 8, 41)]  # latest first; a kind that is neither a click nor a judgment says nothing
    evidence = tally(rows, {})
    assert evidence[1] == Evidence(relevant=1, clicked=1, weight=1 + click_weight(9))
    assert evidence[3] == Evidence(clicked=1)  # on a logged page: weighs through its pages' click rate alone
    assert evidence[2] == Evidence(not_relevant=1, weight=-1)  # user 7's latest judgment, wherever it was sent from
    read = {feedback_boost.CLICK, feedback_boost.RELEVANT, feedback_boost.NOT_RELEVANT}
    assert read <= set(Feedback.Kind.values)  # the kinds read are kinds stored


def test_a_click_weighs_less_than_a_judgment_and_a_deeper_click_more_than_one_at_the_top():
    weights = [click_weight(rank) for rank in range(1, 50)]
    assert 0 < weights[0] < weights[5] and max(weights) == MAX_CLICK_WEIGHT < 1
    assert all(higher <= deeper for higher, deeper in zip(weights, weights[1:]))


def test_the_boost_is_bounded_by_the_spread_of_the_top_scores():
    scores = np.linspace(1.0, 0.0, 1000)  # rank r scores 1 − (r − 1)/999
    spread = scores[0] - scores[REACH - 1]
    many = Evidence(relevant=1000, weight=1000.0)
    lifted, found = boosted(scores, list(range(1000)), {899: many, 19: Evidence(relevant=3, weight=3.0)}, strength=1.0)
    assert 0 < found[899].boost <= spread and lifted[899] - scores[899] == pytest.approx(found[899].boost)
    new_ranks = np.argsort(-lifted, kind="stable").tolist()
    assert new_ranks.index(899) > 800  # from rank 900, however many people: nowhere near the first page
    assert new_ranks.index(19) < 10  # from rank 20, three people's judgments: into the top ten
    assert boosted(scores, list(range(1000)), {}) == (scores, {})


@pytest.mark.django_db
def test_judgments_move_results_for_the_query_and_its_equivalents_and_no_other(index_file):
    index_file()
    last = Formula.objects.search(QUERY, k=10, fusion="f1").hits[-1].formula.latex
    second = rank_of(r"a^2 + b^2 = c^2")
    elsewhere = rank_of(last, query=r"\frac{a}{b} + \frac{c}{d}")
    judge(last, "relevant", people=2)
    judge(r"a^2 + b^2 = c^2", "not_relevant", people=2)
    hits = Formula.objects.search("x^{2}+y^{2}=z^{2}", k=10, fusion="f1").hits  # written otherwise: the same query
    lifted = next(hit for hit in hits if hit.formula.latex == last)
    assert lifted.rank < len(hits) and lifted.feedback.relevant == 2 and lifted.feedback.boost > 0
    assert lifted.feedback.explanation == "2 people found this relevant"
    assert rank_of(r"a^2 + b^2 = c^2", query="x^{2}+y^{2}=z^{2}") > second
    assert rank_of(last, query=r"\frac{a}{b} + \frac{c}{d}") == elsewhere
    assert all(hit.feedback is None for hit in Formula.objects.search(r"\frac{a}{b} + \frac{c}{d}", k=10).hits)


@pytest.mark.django_db
def test_judgments_and_deeper_clicks_lift_more_and_pages_agree(index_file):
    index_file()
    ranked = [hit.formula for hit in Formula.objects.search(QUERY, k=10, fusion="f1").hits]
    for formula, kind, rank, session in [(ranked[3], "click", 1, "a"), (ranked[3], "click", 1, "a"),
                                         (ranked[4], "click", 6, "b"), (ranked[5], "relevant", 6, "c")]:
        Feedback.objects.create(query=QUERY, formula=formula, kind=kind, rank=rank, session_key=session)
    whole = Formula.objects.search(QUERY, k=10, fusion="f1").hits
    boosts = {hit.formula.pk: hit.feedback.boost for hit in whole if hit.feedback}
    assert 0 < boosts[ranked[3].pk] < boosts[ranked[4].pk] < boosts[ranked[5].pk]
    paged = [hit for offset in (0, 3, 6) for hit in Formula.objects.search(QUERY, k=3, offset=offset, fusion="f1").hits]
    assert [(hit.formula.pk, hit.rank) for hit in paged] == [(hit.formula.pk, hit.rank) for hit in whole]


@pytest.mark.django_db
def test_a_patterns_exact_matches_stay_first_whatever_people_said(index_file):
    index_file()
    pattern = r"\qvar{a}^2 + \qvar{b}^2 = \qvar{c}^2"
    hits = Formula.objects.search(pattern, k=10, fusion="f1").hits
    held = {hit.formula.pk for hit in hits if hit.bindings is not None}
    for hit in hits:
        kind = "not_relevant" if hit.formula.pk in held else "relevant"
        for person in range(5):
            Feedback.objects.create(query=pattern, formula=hit.formula, kind=kind, rank=1, session_key=str(person))
    again = Formula.objects.search(pattern, k=10, fusion="f1").hits
    assert {hit.formula.pk for hit in again[:len(held)]} == held


PAGES = {
    "11_12.html": ("Sum of squares", "<p>When is a sum of two squares a square?</p>",
                   "<p>Pythagorean triples: whenever the two squares are the legs of a right triangle.</p>"),
    "21_22.html": ("Squares of integers", "<p>Which integers are sums of two squares?</p>",
                   "<p>Those whose primes of the form 4k+3 appear to even powers, by Fermat's theorem.</p>"),
    "31_32.html": ("Eigenvalues", "<p>Why are the eigenvalues of a symmetric matrix real?</p>",
                   "<p>The eigenvalue equals its own conjugate.</p>"),
}


@pytest.mark.django_db
def test_an_answer_judged_relevant_rises_for_the_question_written_otherwise(tmp_path):
    index_thread_pages(tmp_path / "pages", PAGES)
    question = "When is a sum of two squares a square?"
    before = [hit.post.source_id for hit in Post.objects.search(question, k=2).hits]
    assert before[1] != "32"
    below = Post.objects.get(source_id=before[1])
    for person in range(3):
        Feedback.objects.create(query=question, post=below, kind="relevant", rank=2, session_key=str(person))
    hits = Post.objects.search("when is a SUM of two squares   a square", k=2).hits
    assert [hit.post.source_id for hit in hits] == before[::-1]
    assert hits[0].feedback.explanation == "3 people found this relevant" and hits[1].feedback is None


@pytest.mark.django_db
def test_what_people_shown_a_result_chose_or_passed_over_moves_it_once_they_looked_often_enough(index_file):
    index_file()
    first, chosen = rank_of(r"a^2 + b^2 = c^2"), rank_of(r"\sin^2 x + \cos^2 x = 1")
    shown = [Formula.objects.get(latex=latex) for latex in (r"a^2 + b^2 = c^2", r"\sin^2 x + \cos^2 x = 1")]
    log_page(QUERY, shown, clicked=[1], session="one")  # one page: too few looks to say anything
    assert (rank_of(r"a^2 + b^2 = c^2"), rank_of(r"\sin^2 x + \cos^2 x = 1")) == (first, chosen)
    once = Formula.objects.search(QUERY, k=10, fusion="f1").hits[first - 1]
    assert once.feedback is None  # shown once and passed over: it has a look, but no say
    for person in range(12):  # the first result passed over by all, the second chosen by all
        log_page(" x^{2}+y^{2}=z^{2} ".strip(), shown, clicked=[1], session=f"p{person}")
    hits = {hit.formula.latex: hit for hit in Formula.objects.search(QUERY, k=10, fusion="f1").hits}
    passed, picked = hits[r"a^2 + b^2 = c^2"], hits[r"\sin^2 x + \cos^2 x = 1"]
    assert passed.rank > first and picked.rank < chosen
    assert passed.feedback.weight < 0 and "seldom chosen on the 13 pages that showed it" in passed.feedback.explanation
    assert picked.feedback.weight > feedback_boost.SHOWN_SCALE * 0.5 and picked.feedback.clicked == 13
