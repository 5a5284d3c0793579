"""Small iteration helpers shared by the indexing code."""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator


def chunks(items: Iterable, size: int) -> Iterator[list]:
    """Consecutive lists of `size` items (the last one shorter), consuming `items` lazily."""
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk
