"""Results nobody has seen get a look: on a query people ask often, the first places below the top ten go to the
best-ranked candidates further down that its logged pages have hardly shown.

People's clicks move only results they were shown (`searchapp.search.feedback_boost`), and people read little past
the first page. A relevant formula ranked 27th is then rarely seen and never rises, however often the query is asked:
in `bench_clicks` at seed 0, the relevant formulas missing from the clicked topics' top ten stood at ranks 27–163 and
had had at most a few likely looks in 2,000 sessions. Exploration shows such a candidate at rank 11 or 12, where a
look is likely, until the logs hold MIN_LOOKS looks of it: then its click rate says whether it rises or sinks, and
the next one down takes its place. The sweep goes down the ranking in order, so the likeliest results are tried
first, and it is the same for everyone at a time, so a person paging or reloading sees one list.

The top ten, where people choose, is never touched: a query's P′@10 is what its ranking makes it. A query asked
rarely (no result of it seen ASKED_OFTEN times) is not explored, nor is an interleaved page, whose order is the two
rankers' alone, nor a pattern's, whose exact matches come first.
"""
from __future__ import annotations

import numpy as np

from searchapp.search.feedback_boost import FULL_LOOKS, MIN_LOOKS

FIRST_PLACE = 10
"""The 0-based place of the first explored result: rank 11, right below the first page of ten."""
FROM_PLACE = 20
"""Candidates from rank 21 on are explored: those above it are already shown on the second page of ten."""
DEEPEST = 100
"""How far down the ranking exploration looks: a boost spans one top-30 spread (`feedback_boost`), so a result chosen
from further down could rise only so far, and the looks it took would be spent where they move little."""
ASKED_OFTEN = FULL_LOOKS
"""Likely looks of a query's most seen result from which the query counts as asked often: ten or so searches."""


def explored(order: list[int], looks: np.ndarray, places: int) -> tuple[list[int], set[int]]:
    """The candidates' `order` (indices, best first) with up to `places` of them moved to ranks 11, 12, …: the
    best-ranked ones between ranks 21 and DEEPEST whose `looks` (per candidate index, on the query's logged pages) are
    fewer than MIN_LOOKS; and the indices moved. Unchanged when the query is not asked often, or nothing qualifies."""
    if places <= 0 or len(order) <= FROM_PLACE or looks.max() < ASKED_OFTEN:
        return order, set()
    chosen = [i for i in order[FROM_PLACE:DEEPEST] if looks[i] < MIN_LOOKS][:places]
    moved = set(chosen)
    rest = [i for i in order if i not in moved]
    return rest[:FIRST_PLACE] + chosen + rest[FIRST_PLACE:], moved
