"""The served search: the query read (an unreadable one a 400), logged as an impression; interleaved with a corpus's
candidate on the configured share of searches, the same way for a person's pages of one query; clicks credit the team
that placed the result."""
import re

import pytest
from django.test import Client

from searchapp.errors import ApiError
from searchapp.feedback.people import Person
from searchapp.live.loop import learning_round
from searchapp.live.serving import interleaving_outcome, served_search
from searchapp.models import Formula, Impression
from searchapp.search.query_keys import formula_text_key
from tests.app.factories import FORMULAS, log_page, result_ids

pytestmark = pytest.mark.django_db
QUERY = "p^2 + q^2 = r^2"


def serve(session: str, share: float, **options):
    return served_search(QUERY, Person(None, session), corpus="test", share=share, **options)


def test_a_search_is_logged_as_the_page_it_showed(judged):
    served = serve("s1", share=1.0, k=3, offset=2)  # no candidate yet: not interleaved, whatever the share
    page = Impression.objects.get()
    assert served.impression == page and page.session_key == "s1" and page.corpus.name == "test"
    assert (page.query, page.offset, page.teams, page.candidate) == (QUERY, 2, "", "")
    assert page.formula_ids == [hit.formula_id for hit in served.results.hits] and len(page.formula_ids) == 3
    everywhere = served_search(QUERY, Person(None, "s1"), k=3)
    assert everywhere.impression.corpus is None  # a search of all corpora
    assert served_search(QUERY, Person(None, "s1"), corpus="nothing-here").impression is None


def test_the_query_is_read_in_its_notation_and_one_that_cannot_be_is_a_400_naming_it(indexed):
    served = served_search("<math><msup><mi>x</mi><mn>2</mn></msup></math>", Person(None, "s1"), notation="mathml", k=1)
    assert served.results.query.notation == "mathml" and served.impression.query.startswith("<math>")
    with pytest.raises(ApiError) as raised:
        served_search(r"\frac{1}{", Person(None, "s1"))
    assert raised.value.code == "latex_unbalanced_braces" and raised.value.pos is not None
    assert Impression.objects.count() == 1  # the unreadable query was not logged


LONG = r"e^{x}\, = 1 + x + " + " + ".join(rf"\frac{{x^{{{k}}}}}{{{k}!}}" for k in range(2, 141))
"""A Taylor series of 3,000 characters and 840 symbols."""
TERMS = r"\frac{x^{2}}{2!} + \frac{x^{3}}{3!} + \frac{x^{4}}{4!}"


def test_a_long_formulas_search_is_logged_under_the_whole_formula(index_file):
    index_file([*FORMULAS, TERMS])
    served = served_search(LONG, Person(None, "s1"), k=3)
    assert len(LONG) == 3000 and len(served.results.query.parts) == 3 and len(served.results.hits) == 3
    assert (served.impression.query, served.impression.query_key) == (LONG, formula_text_key(LONG))


def test_with_a_candidate_the_share_decides_and_pages_of_one_list_agree(judged, no_shipped_ranker):
    candidate = learning_round("test", retrain_after=5).trained["candidate"]
    assert serve("s1", share=0.0).results.teams == ""
    first, second = serve("s1", share=1.0, k=3), serve("s1", share=1.0, k=3, offset=3)
    assert len(first.results.teams) == 3 and set(first.results.teams) <= {"a", "b"}
    assert first.impression.candidate == candidate and first.impression.teams == first.results.teams
    whole = serve("s1", share=1.0, k=6).results
    assert [h.formula_id for h in first.results.hits + second.results.hits] == [h.formula_id for h in whole.hits]
    assert first.results.teams + second.results.teams == whole.teams
    assert serve("s1", share=1.0, context="a right triangle").results.teams == ""  # words blend in: not interleaved
    shares = [bool(serve(f"person-{i}", share=0.5, k=1).results.teams) for i in range(40)]
    assert 8 < sum(shares) < 32  # about half of the people


def test_clicks_on_interleaved_pages_credit_the_team_that_placed_the_result(judged):
    formulas = list(Formula.objects.filter(corpus__name="test")[:4])
    log_page(QUERY, formulas, [1], teams="abab", candidate="c1")  # b placed position 1: a win
    log_page(QUERY, formulas, [0, 2], teams="abab", candidate="c1")  # a placed both: a loss
    log_page(QUERY, formulas, [0, 1], teams="abab", candidate="c1")  # one each: a tie
    log_page(QUERY, formulas, [], teams="abab", candidate="c1")  # no click: not compared
    log_page(QUERY, formulas, [1], teams="abab", candidate="c0")  # another candidate's
    result = interleaving_outcome("test", "c1")
    assert (result.wins, result.losses, result.ties) == (1, 1, 1)


def test_the_same_query_twenty_times_with_nobody_clicking_is_the_same_order_and_scores(index_file, client):
    """Served twenty times to an API client, and loaded twenty times by one person whose page reports what was on
    screen: every answer the same."""
    index_file()
    params = {"q": "x^2 + y^2 = z^2", "corpus": "test", "k": 10}

    def answer() -> list[tuple[int, float]]:
        return [(hit["id"], hit["score"]) for hit in Client().get("/api/search", params).json()["results"]]

    first = answer()
    for _ in range(19):
        assert answer() == first
        html = client.get("/", params).content.decode()
        page = int(re.search(r'data-impression="(\d+)"', html)[1])
        client.post("/api/looks", {"impression_id": page, "formula_ids": result_ids(html)[:10]})
    assert answer() == first
