"""Results nobody has seen get a look from rank 11 on, for a query people ask often, and nowhere else."""
import numpy as np
import pytest
from django.test import Client

from searchapp.models import Formula, Impression
from searchapp.search.exploration import ASKED_OFTEN, DEEPEST, explored
from searchapp.search.feedback_boost import MIN_LOOKS
from tests.app.factories import log_page

QUERY = "x^2 + y^2 = z^2"
FORMULAS = [rf"x^{{{n}}} + y^{{{n}}} = z^{{{n}}}" for n in range(2, 20)] + \
    [rf"a_{{{n}}} + b_{{{n}}} = c" for n in range(1, 20)] + [rf"\frac{{{n}}}{{q}} = r" for n in range(1, 10)]


def test_the_best_ranked_unseen_candidates_below_rank_20_take_ranks_11_and_12():
    order = list(range(150))[::-1]  # candidate 149 ranks first
    looks = np.zeros(150)
    looks[order[:25]] = MIN_LOOKS  # ranks 1–25 seen enough
    looks[order[0]] = ASKED_OFTEN
    moved, chosen = explored(order, looks, places=2)
    assert chosen == {order[25], order[26]}  # ranks 26 and 27, the best of those seen too little
    assert moved[:10] == order[:10]  # the first ten as they were
    assert moved[10:12] == order[25:27] and moved[12:27] == order[10:25] and moved[27:] == order[27:]
    assert sorted(moved) == sorted(order)  # a permutation: paging neither repeats nor skips


def test_nothing_moves_for_a_query_asked_rarely_or_without_places_or_unseen_candidates_within_reach():
    order, looks = list(range(150)), np.zeros(150)
    assert explored(order, looks, places=2) == (order, set())  # nobody has asked it often
    looks[0] = ASKED_OFTEN
    assert explored(order, looks, places=0) == (order, set())
    looks[:DEEPEST] = MIN_LOOKS  # everything within reach seen enough; rank 101 and below are too far
    assert explored(order, looks, places=2) == (order, set())
    assert explored(order[:20], looks, places=2) == (order[:20], set())  # no candidate below the second ten


@pytest.fixture
def often_asked(index_file, settings):
    """FORMULAS indexed, and QUERY's first ten shown to twelve people who clicked nothing; exploring two places, and
    no boost, so that the pages logged here and by the searches under test change what is seen, not the order."""
    settings.MATHSEARCH_EXPLORE_PLACES, settings.MATHSEARCH_FEEDBACK_BOOST = 2, 0.0
    index_file(FORMULAS)
    top = Formula.objects.search(QUERY, k=10, fusion="f1").hits
    for person in range(12):
        log_page(QUERY, [hit.formula for hit in top], session=f"p{person}")
    return Formula.objects.search(QUERY, k=40, fusion="f1").hits


def api_page(offset: int, **params) -> list[dict]:
    params = {"q": QUERY, "corpus": "test", "fusion": "f1", "k": 10, "offset": offset, **params}
    return Client().get("/api/search", params).json()["results"]


@pytest.mark.django_db
def test_a_query_asked_often_shows_candidates_nobody_has_seen_from_rank_11_and_its_pages_still_page(often_asked):
    ranked = [hit.formula_id for hit in often_asked]
    first, second, third = api_page(0), api_page(10), api_page(20)
    assert [r["id"] for r in first] == ranked[:10] and not any(r["explored"] for r in first)
    assert [r["id"] for r in second[:2]] == ranked[20:22] and [r["explored"] for r in second] == [True] * 2 + [False] * 8
    assert [r["id"] for r in second[2:]] == ranked[10:18]
    assert [r["id"] for r in third] == ranked[18:20] + ranked[22:30]  # neither repeated nor skipped
    logged = Impression.objects.order_by("-id").values_list("formula_ids", flat=True)[1]
    assert logged[:2] == ranked[20:22]  # logged as shown, so the clicks on them count at ranks 11 and 12


@pytest.mark.django_db
def test_once_seen_enough_the_next_ones_down_are_explored_and_a_plain_search_never_is(often_asked, settings):
    ranked = [hit.formula_id for hit in often_asked]
    tried = [Formula.objects.get(pk=pk) for pk in ranked[20:22]]
    for person in range(int(MIN_LOOKS * 12) + 1):  # at ranks 11 and 12, θ = 1/11 and 1/12 under the prior
        log_page(QUERY, tried, offset=10, session=f"q{person}")
    second = api_page(10)
    assert [r["id"] for r in second[:2]] == ranked[22:24] and second[0]["explored"]
    assert [hit.formula_id for hit in Formula.objects.search(QUERY, k=40, fusion="f1").hits][10:12] != ranked[22:24]
    settings.MATHSEARCH_EXPLORE_PLACES = 0
    assert not any(r["explored"] for r in api_page(10))
