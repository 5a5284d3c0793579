"""LaTeX's counters and labels in one document, so that `\\ref` and its kin print what LaTeX would print.

The structure reader steps the counters where LaTeX does (headings, theorem-like environments, equations,
captions, enumerate items), and `\\label` names the number last stepped in its group, as LaTeX's
`\\@currentlabel` does. Labels are often referenced before they are defined, so a reference is written as a
placeholder that `resolve` replaces once the whole document is read. A label the document does not make known
(defined nowhere, or in something not numbered here) prints as itself in brackets: `[eq:main]`.

Names are hyperref's for `\\autoref` ("Theorem 3.2", "Section 2.1", "Equation 2.14"); `\\cref` uses the same
words but writes equations as cleveref does, "eq. (2.14)", and `\\Cref` capitalizes what `\\cref` prints.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

MACROS = {
    "ref": "*{", "eqref": "*{", "pageref": "*{", "autoref": "*{", "cref": "*{", "Cref": "*{", "Vref": "*{",
    "labelcref": "{", "cpageref": "{", "Cpageref": "{", "crefrange": "*{{", "Crefrange": "*{{",
    "newtheorem": "*{[{[", "declaretheorem": "[{[", "numberwithin": "[{{", "counterwithin": "*{{",
    "counterwithout": "*{{", "newcounter": "{[", "setcounter": "{{", "addtocounter": "{{", "stepcounter": "{",
    "refstepcounter": "{",
}
"""The argument forms (pylatexenc argspecs) of the commands read here, for latex_context: `configure` reads
their arguments by these positions (`\\vref` and `\\nameref` are declared there already)."""
REFERENCES = frozenset({"ref", "eqref", "pageref", "autoref", "cref", "Cref", "vref", "Vref", "nameref",
                        "labelcref", "cpageref", "Cpageref", "crefrange", "Crefrange"})
CONFIGURATION = frozenset({"newtheorem", "declaretheorem", "numberwithin", "counterwithin", "counterwithout",
                           "newcounter", "setcounter", "addtocounter", "stepcounter", "refstepcounter", "appendix",
                           "frontmatter", "mainmatter", "backmatter"})
HEADING_DEPTHS = {"part": -1, "chapter": 0, "section": 1, "subsection": 2, "subsubsection": 3, "paragraph": 4,
                  "subparagraph": 5}
"""LaTeX's levels: a heading deeper than `secnumdepth` is not numbered."""
_NAMES = {"part": "Part", "chapter": "Chapter", "appendix": "Appendix", "section": "Section",
          "subsection": "Section", "subsubsection": "Section", "paragraph": "Paragraph", "subparagraph": "Paragraph",
          "equation": "Equation", "figure": "Figure", "table": "Table", "item": "item", "footnote": "footnote"}
_LISTED = frozenset({"cref", "Cref", "labelcref", "cpageref", "Cpageref"})
"""The references that take a list of labels, `\\cref{a,b}`."""
_STYLES = {"arabic": "1", "alph": "a", "Alph": "A", "roman": "i", "Roman": "I"}
_ITEM_STYLES = ("arabic", "alph", "roman", "Alph")
_ITEM_LABELS = ("{}.", "({})", "{}.", "{}.")
_BOOK_CLASSES = ("book", "report", "reprt", "memoir", "thesis")
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


@dataclass
class _Counter:
    value: int = 0
    style: str = "arabic"
    within: str = ""
    """The counter that resets this one and whose number prefixes it (`\\numberwithin`)."""


@dataclass
class _List:
    numbered: bool
    label: tuple[str, str, str] | None = None
    """An enumerate's own label (prefix, style, suffix), from its options; None for LaTeX's."""
    count: int = 0


class Numbering:
    """The counters, labels and references of one document of class `document_class` (`book`-like classes
    number equations, figures and tables within chapters). Without a class (a file read alone, a subfile) the
    numbers are not known: they depend on what comes before the file in its document."""

    def __init__(self, document_class: str | None = "article") -> None:
        self.known = document_class is not None and document_class != "subfiles"
        document_class = document_class or ""
        book = any(name in document_class for name in _BOOK_CLASSES)
        self.top = "chapter" if book else "section"
        self.secnumdepth = 1 if document_class == "memoir" else 2 if book else 3
        self.counters = {name: _Counter() for name in ("part", "chapter", *HEADING_DEPTHS, "equation", "figure",
                                                       "table")}
        self.counters["part"].style = "Roman"
        for child, parent in zip(list(HEADING_DEPTHS)[3:], list(HEADING_DEPTHS)[2:]):
            self.counters[child].within = parent
        for child in ("section", "equation", "figure", "table") if book else ():
            self.counters[child].within = "chapter"
        self.names = dict(_NAMES)
        self.theorems: dict[str, str] = {}
        """Theorem-like environment → the counter it steps ("" when unnumbered)."""
        self.labels: dict[str, Target] = {}
        self.current: Target | None = None
        self.appendix = False
        self.main_matter = True
        self._lists: list[_List] = []
        self._subequations: str | None = None
        self._subequation = 0
        self._pending: list[tuple[str, list[str], Wrap | None]] = []

    def configure(self, command: str, arguments: list[str | None]) -> None:
        """Reads a command of CONFIGURATION, given its arguments' texts in MACROS's order (None when absent)."""
        last = [argument or "" for argument in arguments[-2:]]
        if command == "newtheorem" and len(arguments) == 5:
            star, environment, shared, printed, within = arguments
            self.new_theorem(environment or "", printed or "", shared or "", within or "", numbered=not star)
        elif command == "declaretheorem" and len(arguments) == 3:
            self.declare_theorem(arguments[1] or "", f"{arguments[0] or ''},{arguments[2] or ''}")
        elif command in ("numberwithin", "counterwithin", "counterwithout", "newcounter") and len(last) == 2:
            self.counters.setdefault(last[0], _Counter())
            self.number_within(last[0], "" if command == "counterwithout" else last[1])
        elif command in ("setcounter", "addtocounter") and len(last) == 2 and re.fullmatch(r"\s*-?\d+\s*", last[1]):
            self.set_counter(last[0], int(last[1]), add=command == "addtocounter")
        elif command in ("stepcounter", "refstepcounter") and last:
            self.step(last[-1], labelled=command == "refstepcounter")
        elif command == "appendix":
            self.start_appendix()
        elif command in ("frontmatter", "mainmatter", "backmatter"):
            self.main_matter = command == "mainmatter"

    def new_theorem(self, environment: str, printed: str, shared: str = "", within: str = "",
                    numbered: bool = True) -> None:
        """`\\newtheorem{environment}[shared]{printed}[within]`, or `\\newtheorem*` when not `numbered`."""
        if not environment:
            return
        self.names[environment] = printed or environment.capitalize()
        self.theorems[environment] = (shared or environment) if numbered else ""
        if numbered and not shared:
            self.counters[environment] = _Counter()
            self.number_within(environment, within)

    def declare_theorem(self, environment: str, options: str) -> None:
        """thmtools' `\\declaretheorem[name=…, numberwithin=…, sibling=…, numbered=no]{environment}`."""
        given = _key_values(options)
        shared = given.get("sibling") or given.get("numberlike") or given.get("sharenumber") or ""
        self.new_theorem(environment, given.get("name", ""), shared, given.get("numberwithin", given.get("within", "")),
                         numbered=given.get("numbered", "yes") != "no")

    def number_within(self, counter: str, parent: str) -> None:
        """Makes `parent` reset `counter` and prefix its number, unless that would make a cycle."""
        ancestor = parent
        for _ in range(len(self.counters) + 1):
            if not ancestor or ancestor == counter:
                break
            ancestor = self.counters.setdefault(ancestor, _Counter()).within
        if ancestor != counter:
            self.counters.setdefault(counter, _Counter()).within = parent

    def set_counter(self, counter: str, value: int, add: bool = False) -> None:
        if counter == "secnumdepth":
            self.secnumdepth = self.secnumdepth + value if add else value
            return
        state = self.counters.setdefault(counter, _Counter())
        state.value = state.value + value if add else value

    def start_appendix(self) -> None:
        """`\\appendix`: the top headings start again at A, and are named Appendix."""
        self.appendix = True
        self.counters[self.top].value = 0
        self.counters[self.top].style = "Alph"

    def the(self, counter: str) -> str:
        """What LaTeX prints for a counter (`\\thesection`): its parents' numbers, then its own."""
        if not self.known:
            return ""
        parts: list[str] = []
        name = counter
        while name and len(parts) <= len(self.counters):
            state = self.counters.setdefault(name, _Counter())
            parts.append(_formatted(state.value, state.style))
            name = state.within
        return ".".join(reversed(parts))

    def step(self, counter: str, kind: str = "", labelled: bool = True) -> str:
        """Adds one to a counter and resets those within it; `labelled` (`\\refstepcounter`) makes it what a
        `\\label` names."""
        if not counter:
            return ""
        self.counters.setdefault(counter, _Counter()).value += 1
        self._reset(counter, set())
        number = self.the(counter)
        if labelled:
            self.current = Target(number, kind or counter)
        return number

    def _reset(self, counter: str, done: set[str]) -> None:
        for name, state in self.counters.items():
            if state.within == counter and name not in done:
                done.add(name)
                state.value = 0
                self._reset(name, done)

    def heading(self, command: str, starred: bool) -> str:
        """A heading's number ("2.1"), its counter stepped, or "" when it prints none."""
        depth = HEADING_DEPTHS.get(command, 0)
        if starred or depth > self.secnumdepth or command == "chapter" and not self.main_matter:
            self.current = Target("", command)
            return ""
        return self.step(command, "appendix" if self.appendix and command == self.top else command)

    def name(self, words: str) -> None:
        """The words of the heading just numbered, for `\\nameref`."""
        if self.current is not None:
            self.current.name = words

    def theorem(self, environment: str) -> str | None:
        """What a theorem-like environment prints before its text ("Theorem 3.2", or "Remark" when it is
        unnumbered), its counter stepped; None for any other environment."""
        if environment not in self.theorems:
            return None
        printed, counter = self.names[environment], self.theorems[environment]
        if not counter:
            self.current = Target("", environment)
            return printed
        return f"{printed} {self.step(counter, environment)}".strip()

    def equation(self, labels: list[str], tag: str | None, numbered: bool) -> str:
        """A display formula's number (its `\\tag` if it has one), its labels naming it; "" when it has none."""
        if tag is not None:
            number = tag
        elif not numbered:
            return ""
        elif self._subequations:
            self._subequation += 1
            number = self._subequations + _formatted(self._subequation, "alph")
        else:
            number = self.step("equation", labelled=False)
        for label in labels:
            self.labels[label] = Target(number, "equation")
        return number

    def subequations(self) -> None:
        """Opens `subequations` (within a group): one number, 2.14, for a label in it; 2.14a, 2.14b for its
        equations."""
        self._subequations = self.step("equation")
        self._subequation = 0

    def caption(self, kind: str) -> str:
        """What a float's caption prints before its text ("Figure 3.1"), or "" outside a figure or table."""
        if not kind:
            self.current = None
            return ""
        return f"{self.names[kind]} {self.step(kind)}".strip()

    def start_list(self, numbered: bool, options: str = "") -> None:
        """Opens a list (within a group): an enumerate when `numbered`, with its `[options]`."""
        self._lists.append(_List(numbered, _item_label(options) if numbered else None))

    def item(self) -> str | None:
        """An enumerate item's label ("1.", "(a)"), what a `\\label` after it names; None outside one."""
        if not self._lists or not self._lists[-1].numbered:
            return None
        levels = [enumerate_list for enumerate_list in self._lists if enumerate_list.numbered]
        this = levels[-1]
        this.count += 1
        depth = min(len(levels), len(_ITEM_STYLES)) - 1
        if this.label is not None:
            prefix, style, suffix = this.label
            label = prefix + _formatted(this.count, style) + suffix
            reference = label.strip().rstrip(".:")
        else:
            own = [_formatted(level.count, style) for level, style in zip(levels, _ITEM_STYLES)]
            label = _ITEM_LABELS[depth].format(own[-1])
            reference = "".join(f"({number})" if index == 1 and len(own) > 2 else number
                                for index, number in enumerate(own))
        self.current = Target(reference, "item")
        return label

    @contextmanager
    def group(self) -> Iterator[None]:
        """An environment: what LaTeX keeps local to it (what a label names, the open lists, subequations)."""
        saved = self.current, len(self._lists), self._subequations
        try:
            yield
        finally:
            self.current, self._subequations = saved[0], saved[2]
            del self._lists[saved[1]:]

    def label(self, key: str) -> None:
        if key and self.current is not None:
            self.labels[key] = self.current

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


def _formatted(value: int, style: str) -> str:
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


def _listed(parts: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`: cleveref's way of listing."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1] if parts else ""


def _plural(name: str) -> str:
    if name.endswith("x"):
        return name[:-1] + "ces"  # Appendix → Appendices
    if name.endswith("y") and name[-2:-1] not in ("a", "e", "o", "u"):
        return name[:-1] + "ies"  # Corollary → Corollaries
    return name + "s"


def _key_values(options: str) -> dict[str, str]:
    """`a=1, b={x,y}` → {"a": "1", "b": "x,y"}: keys and values at the top level of braces."""
    found, depth, start = {}, 0, 0
    for index, char in enumerate(options + ","):
        depth += (char == "{") - (char == "}")
        if char == "," and depth <= 0:
            key, _, value = options[start:index].partition("=")
            value = value.strip()
            found[key.strip()] = value[1:-1] if value.startswith("{") and value.endswith("}") else value
            start = index + 1
    return found


def _item_label(options: str) -> tuple[str, str, str] | None:
    """An enumerate's label from its options: enumitem's `label=(\\alph*)` or the enumerate package's `(a)`
    (the first 1, a, A, i or I outside braces is the number); None for LaTeX's own."""
    if re.fullmatch(r"\s*[A-Za-z*]{2,}(\s*,\s*[A-Za-z*]+)*\s*", options):
        return None  # enumitem's keys without values, `[noitemsep]`
    if "=" in options:
        label = _key_values(options).get("label", "")
        match = re.search(r"\\(arabic|alph|Alph|roman|Roman)\*", label)
        return (_plain(label[:match.start()]), match[1], _plain(label[match.end():])) if match else None
    depth = 0
    for index, char in enumerate(options):
        depth += (char == "{") - (char == "}")
        if depth == 0 and char in "1aAiI" and not re.search(r"\\[A-Za-z]*$", options[:index]):
            style = next(name for name, sample in _STYLES.items() if sample == char)
            return _plain(options[:index]), style, _plain(options[index + 1:])
    return None


def _plain(label: str) -> str:
    """A label's text without its commands and braces (`\\textbf{(}` → `(`)."""
    return re.sub(r"\\[A-Za-z]+\*?\s*|[{}]", "", label)


__all__ = ["CONFIGURATION", "HEADING_DEPTHS", "MACROS", "REFERENCES", "Numbering", "Target"]
