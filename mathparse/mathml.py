"""Presentation MathML (e.g. the organisers' LaTeXML output) → Symbol Layout Tree, with the LaTeX path's conventions.

Elements become the same `layout.Box` baselines as parsed LaTeX and pass through the same `normalise` functions,
so `(x)` as `<mo>(</mo><mi>x</mi><mo>)</mo>` and `\\left(x\\right)` meet in `M!()1x1`, and `<mi>sup</mi>` meets
`\\sup`. LaTeXML's own slips are repaired where the LaTeX it was given shows through: a macro it did not know
(`<merror><mtext>\\lt</mtext></merror>`) is read as our LaTeX reader reads it, an HTML entity it read as text
(`&amp;gt;` → `& g t ;`) is the character again, and base and script that `\\,` wrapped into one `<mpadded>` are
split. Document type declarations are refused outright, so no entity (billion laughs or external) is ever expanded.
"""
from __future__ import annotations

import html
import re
import unicodedata
import xml.etree.ElementTree as ET

from mathparse import latex_symbols as sym
from mathparse.errors import MAX_DEPTH, MAX_MARKUP_CHARS, ParseError, check_length
from mathparse.latex_parser import latex_boxes
from mathparse.layout import CLOSERS, OPENERS, Box, build, fenced_group, matrix_box
from mathparse.normalise import (
    BIG_OPERATOR_CHARS,
    DIGRAPHS,
    canonical,
    finish_baseline,
    is_name,
    name_box,
    query_variable_box,
    symbol_box,
    text_box,
    variable_box,
)
from mathparse.tree import Node

_SILENT = frozenset({"mspace", "mphantom", "annotation", "annotation-xml", "mprescripts", "maligngroup", "malignmark"})
_SCRIPTS = {"msub": ("sub",), "msup": ("sup",), "msubsup": ("sub", "sup"),
            "munder": ("u",), "mover": ("o",), "munderover": ("u", "o")}
_LIMIT_SYMBOLS = BIG_OPERATOR_CHARS | sym.LIMIT_NAMES
_LARGE = {"⊕": "⨁", "⊗": "⨂", "⊙": "⨀", "∪": "⋃", "∩": "⋂", "∨": "⋁", "∧": "⋀", "⊎": "⨄", "⊔": "⨆"}
"""LaTeXML sets `\\bigoplus` as `<mo largeop="true">⊕</mo>`: the large form is the big operator."""
_CONTROL_WORD = re.compile(r"\\[A-Za-z]+")
_COLOURS = frozenset("red blue green orange purple magenta pink grey gray maroon black white cyan yellow brown violet "
                     "olive teal navy lime".split())
"""Colour names of `\\color{red}`, which LaTeXML, not knowing the MathJax macro, sets as letters after its error."""
_MAX_ENTITY_BOXES = 8


def mathml_to_slt(text: str) -> Node:
    check_length(text, MAX_MARKUP_CHARS)
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise ParseError("document type declarations are not accepted", text.find("<!"), "invalid_mathml")
    try:
        element = ET.fromstring(text)
    except ET.ParseError as error:
        line, column = error.position
        raise ParseError(f"malformed XML: {error}", _offset(text, line, column), "invalid_mathml") from None
    root = build(_boxes(element, 0))
    if root is None:
        raise ParseError("MathML has no visible symbols", 0, "empty")
    return root


def _offset(text: str, line: int, column: int) -> int:
    lines = text.split("\n")
    return min(sum(len(previous) + 1 for previous in lines[:line - 1]) + column, len(text))


def _tag(element: ET.Element) -> str:
    return element.tag.rpartition("}")[2] if isinstance(element.tag, str) else ""


def _text(element: ET.Element) -> str:
    text = "".join(element.itertext()) if len(element) else (element.text or "")
    return canonical(text).strip()


def _boxes(element: ET.Element, depth: int) -> list[Box]:
    if depth > MAX_DEPTH:
        raise ParseError(f"MathML nests deeper than {MAX_DEPTH} levels", None, "too_deep")
    tag = _tag(element)
    if tag in _SILENT:
        return []
    if tag in ("mi", "mn", "mo", "mtext", "ms"):
        return _token(tag, element)
    if tag == "qvar":  # NTCIR's `<mws:qvar name="x0"/>`
        name = (element.get("name") or _text(element)).strip()
        return [variable_box(name)] if name else []
    handler = _HANDLERS.get(tag)
    if handler is not None:
        return handler(element, depth)
    return _row(list(element), depth)  # mrow, math and anything unknown: the children's baseline


def _row(children: list[ET.Element], depth: int) -> list[Box]:
    boxes: list[Box] = []
    for child in children:
        boxes += _boxes(child, depth + 1)
    return finish_baseline(_without_colours(_entities(boxes)))


def _token(tag: str, element: ET.Element) -> list[Box]:
    text = _text(element)
    if not text:
        return []
    if tag == "mn":  # `1\,000`, `(1\,2\,3)`: LaTeXML sets digits spaced apart as one number
        return [Box("N!" + number) for number in text.split()]
    if tag in ("mtext", "ms"):
        box = text_box(text)
        return [box] if box is not None else []
    if text.startswith("qvar_"):
        box = query_variable_box(text[len("qvar_"):])
        return [box] if box is not None else []
    if tag == "mi":
        return _identifier(element, text)
    return [_operator(element, text)]


def _identifier(element: ET.Element, text: str) -> list[Box]:
    variant = element.get("mathvariant", "")
    style = {"double-struck": "DOUBLE-STRUCK", "bold": "BOLD", "script": "SCRIPT", "fraktur": "FRAKTUR"}.get(variant)
    if style and len(text) == 1:
        text = sym.styled(text, style)
    if len(text) == 1:
        text = _upright(text)
        return [Box(sym.symbol_label(text), limits=text in _LIMIT_SYMBOLS)]
    if all(_is_styled_letter(char) for char in text):  # LaTeXML sets `\mathbf{Ax}` as one <mi>𝐀𝐱</mi>
        return [symbol_box(_upright(char)) for char in text]
    return [name_box(text) if is_name(text) else Box("V!" + text)]


def _upright(char: str) -> str:
    """A mathematical italic letter is the plain letter: italic is what <mi> means anyway."""
    return unicodedata.normalize("NFKC", char) if unicodedata.name(char, "").startswith("MATHEMATICAL ITALIC ") else char


def _is_styled_letter(char: str) -> bool:
    plain = unicodedata.normalize("NFKC", char)
    return not char.isascii() and plain.isascii() and plain.isalpha()


def _operator(element: ET.Element, text: str) -> Box:
    text = DIGRAPHS.get(text, "∥" if text == "||" else text)
    if element.get("largeop") == "true":
        text = _LARGE.get(text, text)
    if len(text) == 1 and not text.isalnum():
        fence = text if text in OPENERS or text in CLOSERS else ""
        return Box(sym.symbol_label(text) if text in sym.VARIABLE_SYMBOLS else text, limits=text in _LIMIT_SYMBOLS,
                   fence=fence if element.get("fence") != "false" else "")
    if is_name(text):
        return name_box(text)
    return Box(text, limits=text in _LIMIT_SYMBOLS)


def _error(element: ET.Element, depth: int) -> list[Box]:
    """LaTeXML's mark of a macro it could not expand: the macro as the LaTeX reader reads it (`\\lt` is `<`,
    an unknown `\\lam` the text `lam`), so both readers agree on it."""
    text = _text(element)
    if not _CONTROL_WORD.fullmatch(text):
        return _row(list(element), depth)
    try:
        return latex_boxes(text)
    except ParseError:  # a macro that needs arguments LaTeXML set apart (`\color`): its name
        return [Box("T!" + text[1:])]


def _entities(boxes: list[Box]) -> list[Box]:
    """`&`, `g`, `t`, `;` as LaTeXML set an HTML entity escaped twice (`&amp;gt;`): the character `>` again."""
    out: list[Box] = []
    index = 0
    while index < len(boxes):
        entity = _entity_at(boxes, index) if boxes[index].label == "&" and not boxes[index].rels else None
        if entity is None:
            out.append(boxes[index])
            index += 1
            continue
        char, index = entity
        if char == "'" and out:
            out[-1].primes += 1
        elif not char.isspace():
            out.append(symbol_box(char))
    return out


def _entity_at(boxes: list[Box], start: int) -> tuple[str, int] | None:
    """(character, index after the `;`) of the entity spelled from `boxes[start]`, or None."""
    spelled = "&"
    for index in range(start + 1, min(start + _MAX_ENTITY_BOXES, len(boxes))):
        box = boxes[index]
        if box.rels or box.cells is not None:
            return None
        spelled += box.label.partition("!")[2] or box.label
        if box.label == ";":
            char = html.unescape(spelled)
            return (char, index + 1) if len(char) == 1 else None
    return None


def _without_colours(boxes: list[Box]) -> list[Box]:
    """`\\color{red}` as LaTeXML leaves it, the macro's error and then the letters `r e d`, dropped: the LaTeX
    reader skips the colour argument."""
    out: list[Box] = []
    index = 0
    while index < len(boxes):
        box = boxes[index]
        index += 1
        if box.label != "T!color":
            out.append(box)
            continue
        for end in range(min(index + 12, len(boxes)), index, -1):
            word = "".join(letter.label[2:] for letter in boxes[index:end])
            if word.lower() in _COLOURS and all(letter.label.startswith("V!") for letter in boxes[index:end]):
                index = end
                break
    return out


def _arguments(element: ET.Element, depth: int) -> list[list[Box]]:
    return [_boxes(child, depth + 1) for child in element if _tag(child) not in _SILENT]


def _fraction(element: ET.Element, depth: int) -> list[Box]:
    parts = _arguments(element, depth) + [[], []]
    box = Box("O!divide")
    box.attach("o", parts[0])
    box.attach("u", parts[1])
    return [box]


def _sqrt(element: ET.Element, depth: int) -> list[Box]:
    box = Box("O!root")
    box.attach("w", _row(list(element), depth))
    return [box]


def _root(element: ET.Element, depth: int) -> list[Box]:
    parts = _arguments(element, depth) + [[], []]
    box = Box("O!root")
    box.attach("w", parts[0])
    box.attach("c", parts[1])
    return [box]


def _scripted(element: ET.Element, depth: int) -> list[Box]:
    children = [child for child in element if _tag(child) not in _SILENT]
    if len(children) == 1 and _tag(children[0]) == "mpadded" and len(children[0]) > 1:
        children = list(children[0])  # `\,m_1`: LaTeXML wraps base and script in the space's <mpadded>
    parts = [_boxes(child, depth + 1) for child in children]
    base = parts[0] if parts and parts[0] else [Box("E!")]
    target = base[-1]
    for relation, script in zip(_SCRIPTS[_tag(element)], parts[1:]):
        if relation == "sup" and len(script) == 1 and script[0].label and set(script[0].label) == {"′"}:
            target.primes += len(script[0].label)  # <msup><mi>f</mi><mo>′′</mo></msup> is f''
            continue
        if relation in ("sub", "sup"):
            relation = target.script_relation(relation == "sup")
        under_over = target.rels.get(relation, [])
        if under_over and under_over[-1].label in ("⏟", "⏞"):  # the label of `\underbrace{x}_{n}` hangs from the brace
            under_over[-1].attach(relation, script)
        else:
            target.attach(relation, script)
    return base


def _multiscripts(element: ET.Element, depth: int) -> list[Box]:
    """`<mmultiscripts>` base (sub sup)* [<mprescripts/> (sub sup)*]: scripts after the base, pre-scripts before it
    (`c` above, `d` below), as the LaTeX reader attaches `{}^{14}C`."""
    children = list(element)
    base = (_boxes(children[0], depth + 1) if children else []) or [Box("E!")]
    target = base[-1]
    pre = False
    scripts: list[ET.Element] = []
    for child in children[1:] + [ET.Element("mprescripts")]:
        if _tag(child) != "mprescripts":
            scripts.append(child)
            continue
        for index, script in enumerate(scripts):
            above = index % 2 == 1
            relation = ("c" if above else "d") if pre else target.script_relation(above)
            target.attach(relation, _boxes(script, depth + 1))
        pre, scripts = True, []
    return base


def _fenced(element: ET.Element, depth: int) -> list[Box]:
    separator = (element.get("separators", ",").strip() or " ")[0]
    content: list[Box] = []
    for index, child in enumerate(element):
        if index and separator.strip():
            content.append(Box(separator))
        content += _boxes(child, depth + 1)
    return [fenced_group(element.get("open", "("), element.get("close", ")"), content)]


def _table(element: ET.Element, depth: int) -> list[Box]:
    rows = []
    for row in element:
        cells = [cell for cell in row if _tag(cell) == "mtd"] if _tag(row) in ("mtr", "mlabeledtr") else [row]
        rows.append([_row(list(cell), depth + 1) for cell in cells])
    return [matrix_box("", rows)]


def _semantics(element: ET.Element, depth: int) -> list[Box]:
    children = [child for child in element if _tag(child) not in _SILENT]
    return _boxes(children[0], depth + 1) if children else []


_HANDLERS = {
    "mfrac": _fraction, "msqrt": _sqrt, "mroot": _root, "mfenced": _fenced, "mtable": _table,
    "semantics": _semantics, "merror": _error, "mmultiscripts": _multiscripts, **{tag: _scripted for tag in _SCRIPTS},
}
