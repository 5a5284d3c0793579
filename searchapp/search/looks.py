"""What people looked at: logged pages of results (`Impression` rows) read as looks, one per person and result.

Of a logged page only what its person saw counts (`seen`): the results their page reported on screen, and every
result down to the deepest one they clicked, since to click it they read down to it (`searchapp.feedback.
impressions`). A person counts once per query and result however often they were shown it: by the deepest rank
they clicked it at, else by the best rank they saw it at, the look that says most of their passing it over. So a
reload, a script or one person's hundred visits are one voice, as a judgment is (`searchapp.search.feedback_boost`).
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass

Who = tuple[str, int | str]
"""A person: ("user", id), else ("session", key)."""
Page = tuple[int, Hashable, list[int], int, list[int], int | None, str]
"""A logged page as read: (id, what it is grouped by, its formulas in order, offset, seen, user id, session key)."""


@dataclass(frozen=True)
class Look:
    """One person's look at one result for one query."""
    rank: int
    clicked: bool


def page_looks(formulas: list[int], offset: int, seen: Iterable[int], clicked: set[int]) -> Iterator[tuple[int, int, bool]]:
    """(formula, its 1-based rank, whether it was clicked) of each result of a page that its person saw (`seen`)."""
    seen = set(seen)
    for position, formula in enumerate(formulas):
        if formula in seen:
            yield formula, offset + position + 1, formula in clicked


def clicked_per_page(chosen: Iterable[tuple[int, int]]) -> dict[int, set[int]]:
    """{page id: the formulas clicked on it} from (page, formula) clicks."""
    found: dict[int, set[int]] = {}
    for page, formula in chosen:
        found.setdefault(page, set()).add(formula)
    return found


def people_looks(pages: Iterable[Page], chosen: Iterable[tuple[int, int]]) -> dict[tuple[Hashable, int], dict[Who, Look]]:
    """{(group, formula): {person: their look}} over logged `pages`, with `chosen` the (page, formula) clicks made on
    them (see the module's docstring). A page of no one (logged before pages had their person) is a person of its
    own."""
    clicked = clicked_per_page(chosen)
    found: dict[tuple[Hashable, int], dict[Who, Look]] = {}
    for pk, group, formulas, offset, seen, user, session in pages:
        who: Who = ("user", user) if user is not None else ("session", session or f"page:{pk}")
        for formula, rank, was_clicked in page_looks(formulas, offset, seen, clicked.get(pk, set())):
            people = found.setdefault((group, formula), {})
            people[who] = _better(people.get(who), Look(rank, was_clicked))
    return found


def _better(held: Look | None, new: Look) -> Look:
    """The look that stands for a person: a click before no click, the deepest click, else the best rank seen."""
    if held is None or new.clicked > held.clicked:
        return new
    if new.clicked != held.clicked:
        return held
    return new if (new.rank > held.rank if new.clicked else new.rank < held.rank) else held
