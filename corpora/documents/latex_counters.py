"""LaTeX's counters in one document: each one's value, its style (`\\arabic`, `\\Alph`, …) and the counter it is
numbered within, which resets it and prefixes its number (`\\numberwithin{equation}{section}`: 2.14)."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass
class CounterState:
    value: int = 0
    style: str = "arabic"
    within: str = ""
    """The counter that resets this one and whose number prefixes it (`\\numberwithin`)."""


class Counters:
    def __init__(self, names: Iterable[str]) -> None:
        self.states = {name: CounterState() for name in names}

    def __getitem__(self, counter: str) -> CounterState:
        """The counter's state; one the document never declared starts at 0, as LaTeX would complain and go on."""
        return self.states.setdefault(counter, CounterState())

    def new(self, counter: str) -> None:
        """`\\newcounter` and a theorem's own counter: a fresh one, whatever there was of that name."""
        self.states[counter] = CounterState()

    def number_within(self, counter: str, parent: str) -> None:
        """Makes `parent` reset `counter` and prefix its number, unless that would make a cycle."""
        state = self[counter]
        ancestor = parent
        for _ in range(len(self.states) + 1):
            if not ancestor or ancestor == counter:
                break
            ancestor = self[ancestor].within
        if ancestor != counter:
            state.within = parent

    def assign(self, counter: str, value: int, add: bool = False) -> None:
        """`\\setcounter`, or `\\addtocounter` when `add`."""
        state = self[counter]
        state.value = state.value + value if add else value

    def step(self, counter: str) -> None:
        """Adds one to a counter and resets those within it."""
        self[counter].value += 1
        self._reset(counter, set())

    def _reset(self, counter: str, done: set[str]) -> None:
        for name, state in self.states.items():
            if state.within == counter and name not in done:
                done.add(name)
                state.value = 0
                self._reset(name, done)

    def the(self, counter: str) -> str:
        """What LaTeX prints for a counter (`\\thesection`): its parents' numbers, then its own."""
        parts: list[str] = []
        name = counter
        while name and len(parts) <= len(self.states):
            state = self[name]
            parts.append(formatted(state.value, state.style))
            name = state.within
        return ".".join(reversed(parts))


def formatted(value: int, style: str) -> str:
    """`value` in a counter's style: 3 as `c` (`alph`), `III` (`Roman`); as a number where the style has none."""
    if style in ("alph", "Alph") and 0 < value <= 26:
        letter = chr(ord("a") + value - 1)
        return letter.upper() if style == "Alph" else letter
    if style in ("roman", "Roman") and 0 < value < 4000:
        roman = _roman(value)
        return roman.upper() if style == "Roman" else roman
    return str(value)


def _roman(value: int) -> str:
    digits = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
              (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))
    out = []
    for size, letters in digits:
        count, value = divmod(value, size)
        out.append(letters * count)
    return "".join(out)
