"""What a reference prints (`\\ref`, `\\eqref`, `\\autoref`, `\\cref`, `\\nameref` and their kin), once the
document's labels are all known: a reference is written as a placeholder that `resolve` replaces at the end, as
labels are often referenced before they are defined. A label the document does not make known prints as itself
in brackets: `[eq:main]`.

Names are hyperref's for `\\autoref` ("Theorem 3.2", "Section 2.1", "Equation 2.14"); `\\cref` uses the same
words but writes equations as cleveref does, "eq. (2.14)", and `\\Cref` capitalizes what `\\cref` prints.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_LISTED = frozenset({"cref", "Cref", "labelcref", "cpageref", "Cpageref"})
"""The references that take a list of labels, `\\cref{a,b}`."""
_PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")
_NESTING = 3
"""How deep a reference printed inside another (a `\\nameref` to a heading with a `\\ref`) is resolved."""
Wrap = Callable[[str], str]


@dataclass
class Target:
    """What a label names: the number LaTeX prints ("" when none), its kind (a counter or a theorem-like
    environment, which `\\autoref` and `\\cref` name it by) and, for `\\nameref`, a heading's words."""

    number: str
    kind: str
    name: str = ""


class References:
    """A document's labels and the references to them; `names` are the words a kind is printed with ("Theorem"),
    shared with the numbering that declares them."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names
        self.labels: dict[str, Target] = {}
        self._pending: list[tuple[str, list[str], Wrap | None]] = []

    def reference(self, command: str, arguments: list[str], wrap: Wrap | None = None) -> str:
        """A placeholder for what a reference command prints, with its arguments' texts; `wrap` makes the
        printed words fit where the placeholder stands (in a formula, `\\text{…}`)."""
        if not arguments:
            return ""
        self._pending.append((command, arguments, wrap))
        return f"\ue000{len(self._pending) - 1}\ue001"

    def resolve(self, text: str, depth: int = 0) -> str:
        """`text` with each reference placeholder replaced by what it prints, now that all labels are known."""
        if "\ue000" not in text:
            return text
        return _PLACEHOLDER.sub(lambda match: self._resolved(int(match[1]), depth), text)

    def _resolved(self, index: int, depth: int) -> str:
        if index >= len(self._pending):
            return ""
        command, arguments, wrap = self._pending[index]
        printed = self.printed(command, arguments)
        printed = self.resolve(printed, depth + 1) if depth < _NESTING else _PLACEHOLDER.sub("", printed)
        return wrap(printed) if wrap is not None else printed

    def printed(self, command: str, arguments: list[str]) -> str:
        """What a reference command prints for its arguments' texts."""
        keys = [key.strip() for key in arguments[0].split(",") if key.strip()] if command in _LISTED else [
            arguments[0].strip()]
        if not keys:
            return ""
        if command in ("crefrange", "Crefrange") and len(arguments) > 1:
            text = self._range(keys[0], arguments[1].strip())
        elif command in ("cref", "Cref"):
            text = _listed([self._named(kind, numbers, cleveref=True) for kind, numbers in self._grouped(keys)])
        elif command == "autoref":
            text = self._named(*self._grouped(keys[:1])[0], cleveref=False)
        elif command == "eqref":
            text = f"({self._number(keys[0])})" if self._known(keys[0]) else self._number(keys[0])
        elif command == "nameref":
            text = self._nameref(keys[0])
        else:
            text = _listed([self._number(key) for key in keys])
        return text[:1].upper() + text[1:] if command[0] == "C" else text

    def _known(self, key: str) -> bool:
        return key in self.labels and bool(self.labels[key].number)

    def _number(self, key: str) -> str:
        return self.labels[key].number if self._known(key) else f"[{key}]"

    def _grouped(self, keys: list[str]) -> list[tuple[str, list[str]]]:
        """The keys by the kind of what they name, in order of first appearance; each unknown one alone."""
        groups: dict[str, list[str]] = {}
        for key in keys:
            kind = self.labels[key].kind if self._known(key) else f"\0{key}"
            groups.setdefault(kind, []).append(key)
        return list(groups.items())

    def _named(self, kind: str, keys: list[str], cleveref: bool) -> str:
        """`Theorems 3.2 and 3.3`, `eq. (2.14)`; an unknown label as itself in brackets."""
        if kind.startswith("\0"):
            return self._number(keys[0])
        numbers = [self._number(key) for key in keys]
        if cleveref and kind == "equation":
            return f"{'eqs.' if len(numbers) > 1 else 'eq.'} {_listed([f'({number})' for number in numbers])}"
        name = self.names.get(kind, kind)
        return f"{_plural(name) if len(numbers) > 1 else name} {_listed(numbers)}"

    def _range(self, first: str, last: str) -> str:
        named = self._named(*self._grouped([first, last])[0], cleveref=True)
        if not (self._known(first) and self._known(last)) or self.labels[first].kind != self.labels[last].kind:
            return f"{self._number(first)} to {self._number(last)}"
        return named.replace(" and ", " to ")

    def _nameref(self, key: str) -> str:
        target = self.labels.get(key)
        if target is not None and target.name:
            return target.name
        return self._named(*self._grouped([key])[0], cleveref=False)


def _listed(parts: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`: cleveref's way of listing."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1] if parts else ""


def _plural(name: str) -> str:
    if name.endswith("x"):
        return name[:-1] + "ces"  # Appendix → Appendices
    if name.endswith("y") and name[-2:-1] not in ("a", "e", "o", "u"):
        return name[:-1] + "ies"  # Corollary → Corollaries
    return name + "s"


__all__ = ["References", "Target", "Wrap"]
