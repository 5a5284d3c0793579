"""LaTeX's counters and labels in one document, so that `\\ref` and its kin print what LaTeX would print.

The structure reader steps the counters (latex_counters) where LaTeX does (headings, theorem-like environments,
equations, captions, enumerate items), and `\\label` names the number last stepped in its group, as LaTeX's
`\\@currentlabel` does. What a reference prints is latex_references' part, once the whole document is read.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from corpora.documents.latex_counters import Counters, formatted
from corpora.documents.latex_references import References, Target, Wrap

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
_STYLES = {"arabic": "1", "alph": "a", "Alph": "A", "roman": "i", "Roman": "I"}
_ITEM_STYLES = ("arabic", "alph", "roman", "Alph")
_ITEM_LABELS = ("{}.", "({})", "{}.", "{}.")
_BOOK_CLASSES = ("book", "report", "reprt", "memoir", "thesis")


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
        self.counters = Counters(("part", "chapter", *HEADING_DEPTHS, "equation", "figure", "table"))
        self.counters["part"].style = "Roman"
        for child, parent in zip(list(HEADING_DEPTHS)[3:], list(HEADING_DEPTHS)[2:]):
            self.counters[child].within = parent
        for child in ("section", "equation", "figure", "table") if book else ():
            self.counters[child].within = "chapter"
        self.names = dict(_NAMES)
        self.theorems: dict[str, str] = {}
        """Theorem-like environment → the counter it steps ("" when unnumbered)."""
        self.references = References(self.names)
        self.current: Target | None = None
        self.appendix = False
        self.main_matter = True
        self._lists: list[_List] = []
        self._subequations: str | None = None
        self._subequation = 0

    def configure(self, command: str, arguments: list[str | None]) -> None:
        """Reads a command of CONFIGURATION, given its arguments' texts in MACROS's order (None when absent)."""
        last = [argument or "" for argument in arguments[-2:]]
        if command == "newtheorem" and len(arguments) == 5:
            star, environment, shared, printed, within = arguments
            self.new_theorem(environment or "", printed or "", shared or "", within or "", numbered=not star)
        elif command == "declaretheorem" and len(arguments) == 3:
            self.declare_theorem(arguments[1] or "", f"{arguments[0] or ''},{arguments[2] or ''}")
        elif command in ("numberwithin", "counterwithin", "counterwithout", "newcounter") and len(last) == 2:
            self.counters.number_within(last[0], "" if command == "counterwithout" else last[1])
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
            self.counters.new(environment)
            self.counters.number_within(environment, within)

    def declare_theorem(self, environment: str, options: str) -> None:
        """thmtools' `\\declaretheorem[name=…, numberwithin=…, sibling=…, numbered=no]{environment}`."""
        given = _key_values(options)
        shared = given.get("sibling") or given.get("numberlike") or given.get("sharenumber") or ""
        self.new_theorem(environment, given.get("name", ""), shared, given.get("numberwithin", given.get("within", "")),
                         numbered=given.get("numbered", "yes") != "no")

    def set_counter(self, counter: str, value: int, add: bool = False) -> None:
        if counter == "secnumdepth":
            self.secnumdepth = self.secnumdepth + value if add else value
            return
        self.counters.assign(counter, value, add)

    def start_appendix(self) -> None:
        """`\\appendix`: the top headings start again at A, and are named Appendix."""
        self.appendix = True
        self.counters[self.top].value = 0
        self.counters[self.top].style = "Alph"

    def the(self, counter: str) -> str:
        """What LaTeX prints for a counter (`\\thesection`): its parents' numbers, then its own."""
        if not self.known:
            return ""
        return self.counters.the(counter)

    def step(self, counter: str, kind: str = "", labelled: bool = True) -> str:
        """Adds one to a counter and resets those within it; `labelled` (`\\refstepcounter`) makes it what a
        `\\label` names."""
        if not counter:
            return ""
        self.counters.step(counter)
        number = self.the(counter)
        if labelled:
            self.current = Target(number, kind or counter)
        return number

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
            number = self._subequations + formatted(self._subequation, "alph")
        else:
            number = self.step("equation", labelled=False)
        for label in labels:
            self.references.labels[label] = Target(number, "equation")
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
            label = prefix + formatted(this.count, style) + suffix
            reference = label.strip().rstrip(".:")
        else:
            own = [formatted(level.count, style) for level, style in zip(levels, _ITEM_STYLES)]
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
            self.references.labels[key] = self.current

    def reference(self, command: str, arguments: list[str], wrap: Wrap | None = None) -> str:
        """A placeholder for what a reference command prints (see latex_references)."""
        return self.references.reference(command, arguments, wrap)

    def resolve(self, text: str) -> str:
        """`text` with each reference placeholder replaced by what it prints, now that all labels are known."""
        return self.references.resolve(text)


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
