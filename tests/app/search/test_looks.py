"""Logged pages as looks: only what a person saw counts, and each person once per query and result."""
from searchapp.search.looks import Look, page_looks, people_looks


def test_a_page_counts_the_results_its_person_saw_with_their_ranks_after_its_offset():
    formulas = [30, 31, 32, 33, 34]
    assert list(page_looks(formulas, 10, seen=[], clicked=set())) == []  # served, never seen: nothing
    assert list(page_looks(formulas, 10, seen=[30, 33], clicked={33})) == [(30, 11, False), (33, 14, True)]


def test_a_person_counts_once_by_their_deepest_click_else_their_best_look():
    pages = [  # (id, query, formulas, offset, seen, user, session)
        (1, "q", [10, 11, 12], 0, [10, 11, 12], None, "s1"),
        (2, "q", [11, 10, 12], 0, [11, 10, 12], None, "s1"),  # s1 again: 11 at rank 1 now, 10 at rank 2
        (3, "q", [12, 11, 10], 0, [12, 11, 10], None, "s1"),
        (4, "q", [10, 11, 12], 0, [10], 7, "s9"),  # user 7, whatever their session
        (5, "q", [12, 10, 11], 10, [12, 10, 11], 7, "s8"),  # clicked 11 at rank 13
        (6, "q", [10, 11], 0, [10], None, ""),  # a page of no one, logged before pages had their person
        (7, "other", [10], 0, [10], None, "s1"),
    ]
    looks = people_looks(pages, {(2, 12), (3, 12), (5, 11), (6, 10)})
    assert looks[("q", 10)] == {("session", "s1"): Look(1, False), ("user", 7): Look(1, False),
                                ("session", "page:6"): Look(1, True)}
    assert looks[("q", 11)] == {("session", "s1"): Look(1, False), ("user", 7): Look(13, True)}
    assert looks[("q", 12)] == {("session", "s1"): Look(3, True), ("user", 7): Look(11, False)}
    assert looks[("other", 10)] == {("session", "s1"): Look(1, False)}
