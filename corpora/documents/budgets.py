"""What reading one document, and one upload, may cost, counted in work (characters and tokens), never in time:
a few kilobytes of uploaded text must not take gigabytes of memory or hold the worker for an hour.

A document over a budget is a document error naming the budget and what spent it (OverBudget); the job goes on
with the next document. The macro tokens of an upload are shared by its documents: once they are spent, the rest
of the upload is read with its macros left as written, each document saying so.
"""
from __future__ import annotations

from collections import Counter

MAX_DOCUMENT_CHARS = 8_000_000
"""Characters a document may read (each included file each time it is included) and produce (its text and its
verbatim material). The largest file of TeX Live's documentation packages has 1.8 million."""
MAX_UPLOAD_MACRO_TOKENS = 50_000_000
"""Tokens the macro uses of all of an upload's documents may read: a few minutes of work."""


class OverBudget(ValueError):
    """A document past one of its budgets: `budget` names it, `spent_on` says what took it."""

    def __init__(self, budget: str, limit: int, spent_on: str) -> None:
        super().__init__(f"over the budget of {limit:,} {budget}: {spent_on}")
        self.budget = budget
        self.limit = limit
        self.spent_on = spent_on


class CharacterBudget:
    """The characters one document reads and produces, by what they were spent on."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = MAX_DOCUMENT_CHARS if limit is None else limit
        self.total = 0
        self.spent: Counter[str] = Counter()
        self.reads: Counter[str] = Counter()

    def spend(self, what: str, chars: int, read: bool = False) -> None:
        """Count `chars` spent on `what` (a file `read`, or what was produced); OverBudget past the limit."""
        self.total += chars
        self.spent[what] += chars
        self.reads[what] += read
        if self.total > self.limit:
            raise OverBudget("characters a document may read and produce", self.limit, self.summary())

    def summary(self) -> str:
        """The three largest spenders, e.g. `big.tex read 2 times (9,600,000), verbatim set aside (4,800,000)`."""
        return ", ".join(f"{what} read {self.reads[what]:,} times ({chars:,})" if self.reads[what] > 1 else
                         f"{what} read ({chars:,})" if self.reads[what] else f"{what} ({chars:,})"
                         for what, chars in self.spent.most_common(3))


class UploadTokens:
    """The macro tokens left for the rest of an upload's documents."""

    def __init__(self, limit: int | None = None) -> None:
        self.left = MAX_UPLOAD_MACRO_TOKENS if limit is None else limit

    def spend(self, tokens: int) -> None:
        self.left = max(self.left - tokens, 0)
