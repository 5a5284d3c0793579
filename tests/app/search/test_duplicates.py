import pytest
from hypothesis import given
from hypothesis import strategies as st

from searchapp.search.duplicates import first_of_each, with_copies


@pytest.mark.parametrize("order, keys, kept, copies", [
    ([0, 1, 2], ["a", "b", "c"], [0, 1, 2], {}),
    ([2, 0, 1], ["a", "b", "a"], [2, 1], {2: [0]}),
    ([0, 1, 2, 3], ["a", "a", "b", "a"], [0, 2], {0: [1, 3]}),
    ([1, 0], [None, None], [1, 0], {}),  # posts without an address are never merged
    ([], [], [], {}),
])
def test_the_first_of_each_key_is_kept_and_names_the_later_ones(order, keys, kept, copies):
    assert first_of_each(order, keys) == (kept, copies)


@given(st.lists(st.sampled_from(["a", "b", "c", None]), max_size=30), st.randoms())
def test_every_candidate_is_kept_or_a_copy_of_an_earlier_one_with_its_key(keys, random):
    order = list(range(len(keys)))
    random.shuffle(order)
    kept, copies = first_of_each(order, keys)
    assert sorted(kept + [i for later in copies.values() for i in later]) == sorted(order)
    assert kept == [i for i in order if i in kept]  # the order is kept
    named = [keys[i] for i in kept if keys[i] is not None]
    assert len(named) == len(set(named))
    for first, later in copies.items():
        assert all(keys[i] == keys[first] and order.index(i) > order.index(first) for i in later)


def test_a_page_reads_its_candidates_and_their_copies():
    assert with_copies([2, 1], {2: [0, 3]}) == [2, 0, 3, 1]
