"""One hit per formula or post however many corpora hold it.

Corpora may overlap (a sample and the collection it came from, a file uploaded twice under two names), and a
search over all of them would list the same formula or answer once per corpus, pushing the others off the page.
The best of each is kept, and the rest are named on it ("also in …").
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence


def first_of_each(order: Iterable[int], keys: Sequence[Hashable | None]) -> tuple[list[int], dict[int, list[int]]]:
    """The candidates of `order` whose key no earlier one had, and for each of them the later ones sharing it.
    A None key is never a duplicate (a post without an address)."""
    kept: list[int] = []
    first: dict[Hashable, int] = {}
    copies: dict[int, list[int]] = {}
    for i in order:
        key = keys[i]
        if key is None:
            kept.append(i)
        elif key in first:
            copies.setdefault(first[key], []).append(i)
        else:
            first[key] = i
            kept.append(i)
    return kept, copies


def with_copies(page: list[int], copies: dict[int, list[int]]) -> list[int]:
    """The candidates of a page and their copies: the rows a page reads."""
    return [j for i in page for j in (i, *copies.get(i, ()))]
