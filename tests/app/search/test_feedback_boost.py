"""Queries asked again get better: what people said of a query's results reorders them, each person once, a bounded
number of places, never changing a score and never past the query's exact match."""
import numpy as np
import pytest

from searchapp.models import Feedback, Formula, Post
from searchapp.search import feedback_boost
from searchapp.search.feedback_boost import MIN_PEOPLE_DOWN, REACH, Evidence, boosted, settled, tally, with_places
from searchapp.search.looks import Look
from tests.app.factories import index_thread_pages, log_page

QUERY = "x^2 + y^2 = z^2"


def hits_of(query: str = QUERY, **options) -> dict[str, object]:
    return {hit.formula.latex: hit for hit in Formula.objects.search(query, k=10, fusion="f1", **options).hits}


def rank_of(latex: str, query: str = QUERY, **options) -> int:
    return hits_of(query, **options)[latex].rank


def judge(latex: str, kind: str, people: int = 1, query: str = QUERY, rank: int = 5) -> Formula:
    formula = Formula.objects.get(latex=latex)
    for person in range(people):
        Feedback.objects.create(query=query, formula=formula, kind=kind, rank=rank, session_key=f"{kind}-{person}")
    return formula


def test_a_person_counts_once_by_their_latest_judgment_and_else_by_their_look():
    judgments = [(1, None, "s2", "relevant"), (1, None, "s2", "not_relevant"),  # latest first: s2 means relevant
                 (2, 7, "old", "not_relevant"), (2, 7, "", "relevant"),  # user 7's latest, wherever it was sent from
                 (3, None, "s5", "impression")]  # a kind that is neither judgment says nothing
    shown = {1: {("session", "s1"): Look(1, True), ("session", "s2"): Look(2, False)},
             4: {("session", "s3"): Look(1, False)}}
    evidence = tally(judgments, shown)
    assert evidence[1] == Evidence(relevant=1, clicked=1, weight=1.0, looks=1.5)  # s2's look is their judgment's
    assert evidence[2] == Evidence(not_relevant=1)  # one person's "not relevant" moves nothing down
    assert evidence[4] == Evidence(passed=1, looks=1.0) and not evidence[4].said  # too few looks to say anything
    assert 3 not in evidence
    read = {feedback_boost.CLICK, feedback_boost.RELEVANT, feedback_boost.NOT_RELEVANT}
    assert read <= set(Feedback.Kind.values)  # the kinds read are kinds stored


def test_nothing_moves_down_before_three_people_say_so():
    def down(people: int) -> float:
        judged = [(1, None, f"s{person}", "not_relevant") for person in range(people)]
        return tally(judged, {})[1].weight

    assert [down(people) for people in range(1, MIN_PEOPLE_DOWN + 1)] == [0.0] * (MIN_PEOPLE_DOWN - 1) + [-3.0]
    one_passed = {1: {("session", "p"): Look(1, False)}}
    assert tally([(1, None, f"s{person}", "not_relevant") for person in range(2)], one_passed)[1].weight == -2.0


@pytest.mark.parametrize("moved, headline", [(3, "Moved up 3 places"), (-1, "Moved down 1 place"), (0, "People said")])
def test_the_headline_says_how_many_places_people_moved_it(moved, headline):
    assert Evidence(relevant=2, weight=2.0, moved=moved).headline == headline


def test_the_order_moves_at_most_the_spread_of_the_top_scores_and_the_scores_stay():
    scores = np.linspace(1.0, 0.0, 1000)  # rank r scores 1 − (r − 1)/999
    spread = scores[0] - scores[REACH - 1]
    many = Evidence(relevant=1000, weight=1000.0)
    ordered, found = boosted(scores, list(range(1000)), {899: many, 19: Evidence(relevant=3, weight=3.0)}, strength=1.0)
    assert 0 < ordered[899] - scores[899] <= spread and set(found) == {899, 19}
    assert np.array_equal(scores, np.linspace(1.0, 0.0, 1000))  # what the hits show is left as it was
    new_ranks = np.argsort(-ordered, kind="stable").tolist()
    assert new_ranks.index(899) > 800  # from rank 900, however many people: nowhere near the first page
    assert new_ranks.index(19) < 10  # from rank 20, three people's judgments: into the top ten
    assert boosted(scores, list(range(1000)), {}) == (scores, {})


@pytest.mark.parametrize("unmoved, moved, expected", [
    pytest.param([0, 1, 2, 3], [1, 0, 2, 3], [0, 1, 2, 3], id="passed-by-one-that-stood-below"),
    pytest.param([0, 1, 2, 3, 4], [3, 4, 0, 1, 2], [0, 3, 4, 1, 2], id="passed-by-two"),
    pytest.param([1, 0, 2, 3], [1, 2, 3, 0], [1, 0, 2, 3], id="sunk-below-ones-that-stood-below"),
    pytest.param([1, 0, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3], id="one-that-stood-above-may-sink-below"),
    pytest.param([0, 1, 2, 3], [0, 2, 1, 3], [0, 2, 1, 3], id="the-others-reorder-freely"),
])
def test_the_exact_match_is_never_below_a_result_that_stood_below_it(unmoved, moved, expected):
    keys = ["exact", "a", "b", "c", "d"]  # candidate 0 matches the query exactly
    assert settled(unmoved, moved, keys, "exact") == expected
    assert settled(unmoved, moved, keys, "") == moved  # a query without a key (a stored formula's) has none


def test_places_moved_are_counted_against_the_order_without_feedback_and_only_the_way_people_said():
    found = {2: Evidence(relevant=1, weight=1.0), 5: Evidence(relevant=2, weight=2.0), 3: Evidence(not_relevant=3),
             4: Evidence(not_relevant=3, weight=-3.0)}
    keys = ["a", "b", "c", "d", "e", "c"]  # candidate 5 is a copy of 2
    placed = with_places(found, unmoved=[0, 1, 2, 3, 4], final=[2, 0, 1, 3, 4], keys=keys)
    assert (placed[2].moved, placed[5].moved, placed[4].moved) == (2, 2, 0)  # 4 stayed fifth
    passed = with_places(found, unmoved=[0, 1, 2, 3, 4], final=[0, 3, 1, 2, 4], keys=keys)
    assert (passed[2].moved, passed[3].moved) == (0, 0)  # passed by one that rose: not moved by what people said of it


@pytest.mark.django_db
def test_judgments_reorder_the_query_and_its_equivalents_and_no_other_and_leave_every_score(index_file):
    index_file()
    before = hits_of()
    last = max(before.values(), key=lambda hit: hit.rank).formula.latex
    elsewhere = rank_of(last, query=r"\frac{a}{b} + \frac{c}{d}")
    judge(last, "relevant", people=2)
    judge(r"a^2 + b^2 = c^2", "not_relevant", people=MIN_PEOPLE_DOWN)
    after = hits_of("x^{2}+y^{2}=z^{2}")  # written otherwise: the same query
    lifted = after[last]
    assert lifted.rank < before[last].rank and lifted.feedback.relevant == 2
    assert lifted.feedback.moved == before[last].rank - lifted.rank > 0
    assert lifted.feedback.explanation == "2 people found this relevant"
    assert after[r"a^2 + b^2 = c^2"].rank > before[r"a^2 + b^2 = c^2"].rank
    assert {latex: hit.score for latex, hit in after.items()} == {latex: hit.score for latex, hit in before.items()}
    assert rank_of(last, query=r"\frac{a}{b} + \frac{c}{d}") == elsewhere
    assert all(hit.feedback is None for hit in Formula.objects.search(r"\frac{a}{b} + \frac{c}{d}", k=10).hits)


@pytest.mark.django_db
def test_clicks_sent_without_the_page_they_were_made_on_move_nothing(index_file):
    index_file()
    before = [hit.formula for hit in Formula.objects.search(QUERY, k=10, fusion="f1").hits]
    for person in range(20):
        Feedback.objects.create(query=QUERY, formula=before[-1], kind="click", rank=len(before), session_key=f"c{person}")
    assert [hit.formula for hit in Formula.objects.search(QUERY, k=10, fusion="f1").hits] == before
    judge(before[-1].latex, "relevant")
    paged = [hit for offset in (0, 3, 6) for hit in Formula.objects.search(QUERY, k=3, offset=offset, fusion="f1").hits]
    whole = Formula.objects.search(QUERY, k=10, fusion="f1").hits
    assert whole[-1].formula != before[-1]  # one judgment did
    assert [(hit.formula.pk, hit.rank) for hit in paged] == [(hit.formula.pk, hit.rank) for hit in whole[:9]]


@pytest.mark.django_db
def test_the_exact_match_stays_first_whatever_people_said(index_file):
    index_file()
    before = Formula.objects.search(QUERY, k=10, fusion="f1").hits
    assert before[0].formula.latex == QUERY
    judge(QUERY, "not_relevant", people=5)
    for hit in before[1:4]:
        judge(hit.formula.latex, "relevant", people=5)
    after = Formula.objects.search("x^{2} + y^{2} = z^{2}", k=10, fusion="f1").hits
    assert after[0].formula.latex == QUERY and after[0].feedback.moved == 0
    assert [hit.formula.pk for hit in after[1:4]] == [hit.formula.pk for hit in before[1:4]]
    assert "5 people found this not relevant" in after[0].feedback.explanation


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
def test_an_answer_judged_relevant_rises_for_the_question_written_otherwise_and_keeps_its_score(tmp_path):
    index_thread_pages(tmp_path / "pages", PAGES)
    question = "When is a sum of two squares a square?"
    before = Post.objects.search(question, k=2).hits
    assert before[1].post.source_id != "32"
    for person in range(3):
        Feedback.objects.create(query=question, post=before[1].post, kind="relevant", rank=2, session_key=str(person))
    hits = Post.objects.search("when is a SUM of two squares   a square", k=2).hits
    assert [hit.post.pk for hit in hits] == [before[1].post.pk, before[0].post.pk]
    assert hits[0].feedback.explanation == "3 people found this relevant" and hits[0].feedback.moved == 1
    assert hits[1].feedback is None
    again = Post.objects.search(question, k=2).hits  # as asked before: the same scores, in another order
    assert [hit.score for hit in again] == [before[1].score, before[0].score]


@pytest.mark.django_db
def test_what_people_who_saw_a_result_chose_or_passed_over_moves_it_once_enough_of_them_looked(index_file):
    index_file()
    first, chosen = rank_of(r"a^2 + b^2 = c^2"), rank_of(r"\sin^2 x + \cos^2 x = 1")
    shown = [Formula.objects.get(latex=latex) for latex in (r"a^2 + b^2 = c^2", r"\sin^2 x + \cos^2 x = 1")]
    for _ in range(13):  # one person's thirteen visits: one voice, too few looks to say anything
        log_page(QUERY, shown, clicked=[1], session="one")
    assert (rank_of(r"a^2 + b^2 = c^2"), rank_of(r"\sin^2 x + \cos^2 x = 1")) == (first, chosen)
    assert hits_of()[r"a^2 + b^2 = c^2"].feedback is None  # seen and passed over: a look, but no say
    for person in range(12):  # twelve more people: the first result passed over by all, the second chosen by all
        log_page(" x^{2}+y^{2}=z^{2} ".strip(), shown, clicked=[1], session=f"p{person}")
    for person in range(20):  # served to twenty more, who never saw it (an API client, a crawler): nothing
        log_page(QUERY, shown, session=f"api{person}", seen=False)
    hits = hits_of()
    passed, picked = hits[r"a^2 + b^2 = c^2"], hits[r"\sin^2 x + \cos^2 x = 1"]
    assert passed.rank > first and picked.rank < chosen
    assert passed.feedback.weight < 0 and passed.feedback.explanation == "13 people passed it over"
    assert picked.feedback.weight > feedback_boost.SHOWN_SCALE * 0.5 and picked.feedback.clicked == 13
