"""Where the good matches of a first page end (`search_page.cut_of`)."""
import pytest

from searchapp.search.results import SearchHit
from searchapp.web.presenters import ResultItem
from searchapp.web.search_page import cut_of


def _items(scores, bindings=None):
    bindings = bindings or [None] * len(scores)
    return [ResultItem(SearchHit(None, score, {}, rank, bindings=bound), [], 0)
            for rank, (score, bound) in enumerate(zip(scores, bindings), start=1)]


@pytest.mark.parametrize("scores, cut", [
    ([1.014, 0.59, 0.566, 0.541, 0.534, 0.528, 0.519], 1),  # e^{i\pi}+1=0: its exact match stands apart
    ([0.926, 0.885, 0.752, 0.729, 0.713, 0.688, 0.685], 2),  # \sum_{k=1}^n k^2: two near matches
    ([0.70, 0.69, 0.68, 0.67, 0.66, 0.65], None),  # an even slope: no end to show
    ([0.70, 0.64, 0.58, 0.52, 0.46], None),  # evenly steep: no drop stands out
    ([0.70, 0.68, 0.67], None),  # a drop, but too small to mean anything
    ([0.9, 0.3], None),  # one drop alone has nothing to stand out from
])
def test_a_marked_drop_in_score_ends_the_good_matches(scores, cut):
    assert cut_of(_items(scores), pattern=False) == cut


def test_for_a_pattern_the_good_matches_are_those_holding_it():
    held = [[("x", "n^2")], [("x", "k")], None, None]
    assert cut_of(_items([0.8, 0.7, 0.95, 0.6], held), pattern=True) == 2
    assert cut_of(_items([0.8, 0.7], [[("x", "n")], [("x", "k")]]), pattern=True) is None  # all hold it
    assert cut_of(_items([0.8, 0.7], [None, None]), pattern=True) is None  # none does


def test_results_shown_to_learn_do_not_mark_where_the_good_matches_end():
    items = _items([0.9, 0.89, 0.88, 0.87, 0.3, 0.29, 0.86])
    for item in items[4:6]:
        item.hit.explored = True  # ranks 5 and 6 stand above their scores
    assert cut_of(items, pattern=False) is None  # the even slope above them has no end
    assert cut_of(_items([0.9, 0.89, 0.88, 0.87, 0.3, 0.29, 0.86]), pattern=False) == 4
