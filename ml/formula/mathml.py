"""Presentation MathML (e.g. the organisers' LaTeXML output) → Symbol Layout Tree, with the LaTeX path's conventions.

Elements become the same `layout.Box` baselines as parsed LaTeX, so `(x)` as `<mo>(</mo><mi>x</mi><mo>)</mo>`
and `\\left(x\\right)` meet in `M!()1x1`. Document type declarations are refused outright, so no entity
(billion laughs or external) is ever expanded.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

from ml.formula import latex_symbols as sym
from ml.formula.errors import MAX_DEPTH, MAX_MARKUP_CHARS, ParseError, check_length
from ml.formula.layout import CLOSERS, OPENERS, Box, build, fenced_group, group_fences, mark_differentials, matrix_box
from ml.formula.tree import Node

_TRANSPARENT = frozenset({"math", "mrow", "mstyle", "mpadded", "merror", "menclose", "mlabeledtr", "none"})
_SILENT = frozenset({"mspace", "mphantom", "annotation", "annotation-xml", "mprescripts", "maligngroup", "malignmark"})
_SCRIPTS = {"msub": ("sub",), "msup": ("sup",), "msubsup": ("sub", "sup"),
            "munder": ("u",), "mover": ("o",), "munderover": ("u", "o")}
_NORMALISE = str.maketrans({"−": "-", "–": "-", "\u2061": None, "\u2062": None, "\u2063": None, "\u2064": None,
                            "·": "⋅"})
"""Minus signs as Tangent writes them; invisible function application / times / separator / plus dropped."""
_LIMIT_SYMBOLS = frozenset(sym.BIG_OPERATORS.values()) | sym.LIMIT_NAMES


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
    return text.translate(_NORMALISE).strip()


def _boxes(element: ET.Element, depth: int) -> list[Box]:
    if depth > MAX_DEPTH:
        raise ParseError(f"MathML nests deeper than {MAX_DEPTH} levels", None, "too_deep")
    tag = _tag(element)
    if tag in _SILENT:
        return []
    if tag in ("mi", "mn", "mo", "mtext", "ms"):
        return _token(tag, element)
    handler = _HANDLERS.get(tag)
    if handler is not None:
        return handler(element, depth)
    return _row(list(element), depth)  # mrow, math and anything unknown: the children's baseline


def _row(children: list[ET.Element], depth: int) -> list[Box]:
    boxes: list[Box] = []
    for child in children:
        boxes += _boxes(child, depth + 1)
    boxes = group_fences(boxes)
    mark_differentials(boxes)
    return boxes


def _token(tag: str, element: ET.Element) -> list[Box]:
    text = _text(element)
    if not text:
        return []
    if tag == "mn":
        return [Box("N!" + text)]
    if tag in ("mtext", "ms"):
        return [Box("T!" + text)]
    if tag == "mi":
        variant = element.get("mathvariant", "")
        style = {"double-struck": "DOUBLE-STRUCK", "bold": "BOLD", "script": "SCRIPT", "fraktur": "FRAKTUR"}.get(variant)
        if style and len(text) == 1:
            text = sym.styled(text, style)
        label = sym.symbol_label(text) if len(text) == 1 else "V!" + text
        return [Box(label, limits=text in _LIMIT_SYMBOLS)]
    if text == "||":
        text = "∥"
    if len(text) == 1 and not text.isalnum():
        fence = text if text in OPENERS or text in CLOSERS else ""
        return [Box(sym.symbol_label(text) if text in sym.VARIABLE_SYMBOLS else text, limits=text in _LIMIT_SYMBOLS,
                    fence=fence if element.get("fence") != "false" else "")]
    return [Box(text, limits=text in _LIMIT_SYMBOLS)]


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
    parts = _arguments(element, depth)
    base = parts[0] if parts and parts[0] else [Box("E!")]
    target = base[-1]
    for relation, script in zip(_SCRIPTS[_tag(element)], parts[1:]):
        if relation == "sup" and len(script) == 1 and script[0].label and set(script[0].label) == {"′"}:
            target.primes += len(script[0].label)  # <msup><mi>f</mi><mo>′′</mo></msup> is f''
            continue
        if relation in ("sub", "sup"):
            relation = target.script_relation(relation == "sup")
        target.attach(relation, script)
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
    "semantics": _semantics, **{tag: _scripted for tag in _SCRIPTS},
}
