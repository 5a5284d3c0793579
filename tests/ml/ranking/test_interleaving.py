import random

import numpy as np
import pytest

from ml.ranking.interleaving import BETTER, UNDECIDED, WORSE, credit, outcome, team_draft, verdict


def test_team_draft_alternates_picks_and_skips_what_the_other_team_placed():
    merged, teams = team_draft([1, 2, 3, 4], [2, 1, 4, 3], random.Random(0))
    assert sorted(merged) == [1, 2, 3, 4] and len(teams) == 4
    assert merged[:2] in ([1, 2], [2, 1])  # each team's best first, in the coin's order
    for pair in (teams[0:2], teams[2:4]):  # the teams are even after every second pick
        assert sorted(pair) == ["a", "b"]


def test_identical_rankings_give_that_ranking_whatever_the_coin():
    for seed in range(10):
        assert team_draft([5, 6, 7], [5, 6, 7], random.Random(seed))[0] == [5, 6, 7]


def test_the_seeded_coin_makes_the_list_reproducible_and_a_length_cuts_it():
    a, b = list(range(20)), list(reversed(range(20)))
    assert team_draft(a, b, random.Random(3)) == team_draft(a, b, random.Random(3))
    merged, teams = team_draft(a, b, random.Random(3), length=5)
    assert merged == team_draft(a, b, random.Random(3))[0][:5] and len(teams) == 5


def test_a_team_whose_ranking_runs_out_lets_the_other_pick():
    merged, teams = team_draft([1], [2, 3, 4], random.Random(1))
    assert sorted(merged) == [1, 2, 3, 4] and teams.count("a") == 1


def test_each_team_leads_half_the_time():
    firsts = [team_draft([1, 2], [2, 1], random.Random(seed))[1][0] for seed in range(2000)]
    assert 0.45 < firsts.count("a") / len(firsts) < 0.55


def test_clicks_credit_the_team_that_placed_the_clicked_result():
    assert credit("abab", [1]) == 1 and credit("abab", [0, 2, 3]) == -1 and credit("abab", [0, 1]) == 0
    assert credit("abab", []) == 0 and credit("ab", [7]) == 0  # a position past the list credits no one


def test_the_verdict_needs_enough_comparisons_and_an_interval_clear_of_zero():
    assert verdict(outcome([1] * 8 + [-1] * 2), 20) == UNDECIDED  # too few
    won = outcome([1] * 30 + [-1] * 10 + [0] * 10)
    assert (won.wins, won.losses, won.ties, won.compared) == (30, 10, 10, 50) and won.delta == pytest.approx(0.4)
    assert won.lo > 0 and verdict(won, 20) == BETTER
    assert verdict(outcome([-1] * 30 + [1] * 10), 20) == WORSE
    assert verdict(outcome([1, -1] * 20), 20) == UNDECIDED
    assert outcome([]).compared == 0


def test_clicks_of_a_user_who_prefers_the_better_ranking_pick_it():
    """Simulated users click relevant results: B ranks the relevant ones first, A ranks them last."""
    rng, relevant = np.random.default_rng(0), {0, 1, 2}
    a, b = list(range(9, -1, -1)), list(range(10))
    credits = []
    for seed in range(100):
        merged, teams = team_draft(a, b, random.Random(seed))
        clicked = [i for i, item in enumerate(merged) if item in relevant and rng.random() < 0.6 / (i + 1)]
        if clicked:
            credits.append(credit(teams, clicked))
    assert verdict(outcome(credits), 20) == BETTER
