"""Content MathML (LaTeXML output, as in the ARQMath formula files) → Operator Tree.

Emits the label scheme of `mathparse.opt` so the two OPT builders can be compared node for node.
LaTeXML's own conventions are mapped onto it:
* `<apply><apply><csymbol>subscript</csymbol><sum/>L</apply>B</apply>` (a big operator with its
  limits written as scripts) → `O!sum(L, B)`; an integrand ending in `differential-d(x)` loses
  the differential and `x` becomes the last child, as `\\int … dx` does on the SLT side;
* `<apply><times/><ci>f</ci>X</apply>` with f one of the function letters → `F!f(X)`, because
  LaTeXML reads `f(x)` as a product;
* math-italic identifiers (`𝑥`, `ℎ`, `italic-ϵ`) → plain letters; `<interval closure="open">` →
  `O!tuple` (LaTeXML writes every `(a,b)` as an open interval); `delimited-[]` is transparent;
  `absent` operands are dropped; LaTeXML's parse failures (`cerror` fragments) → `O!fragments`.
"""
from __future__ import annotations

import unicodedata
import xml.etree.ElementTree as ET

from mathparse.errors import ParseError
from mathparse.opt_nodes import leaf, make
from mathparse.opt_symbols import (
    BIG_OPERATORS,
    CMML_FUNCTIONS,
    CMML_SCRIPTS,
    CONSTANTS,
    DELIMITED,
    FUNCTION_LETTERS,
    FUNCTIONS,
    INFIX,
    INTEGRALS,
    PREFIX,
)
from mathparse.tree import Node, Tree

MAX_CHARS = 200_000
MAX_DEPTH = 100
"""Nesting refused beyond this (real LaTeXML output stays under 20); keeps well inside the recursion limit."""

_TRANSPARENT, _ABSENT = "delimited-[]", "absent"
_EXTRA_OPERATORS = {
    "root": "O!root", "factorial": "O!factorial", "binomial": "O!binom", "continued-fraction": "O!divide",
    "cases": "O!cases", "conditional-set": "O!condset", "formulae-sequence": "O!list",
    "evaluated-at": "O!evaluated-at", "differential-d": "O!d", "max": "F!max", "min": "F!min",
    "percent": "O!percent", "fragments": "O!fragments", "annotated": "O!annotated", **CMML_SCRIPTS,
}
_LEAVES = {"exponentiale": "V!e", "imaginaryi": "V!i", "true": "C!true", "false": "C!false"}
_BIG_FORMS = {"U!union": "O!bigcup", "U!intersect": "O!bigcap", "U!oplus": "O!bigoplus",
              "U!and": "O!bigwedge", "U!or": "O!bigvee"}
"""Binary operators LaTeXML also uses for their big forms (`\\bigcup_{n}` is a scripted `<union/>`)."""
_CONTAINERS = {"list": "O!list", "set": "U!set", "vector": "O!tuple", "matrix": "O!matrix",
               "matrixrow": "O!row", "cerror": "O!fragments", "merror": "O!fragments"}
_INTERVALS = {"open": "O!tuple", "closed": "O!interval-cc", "open-closed": "O!interval-oc",
              "closed-open": "O!interval-co"}
_FUNCTION_LIKE_BIG = {"O!max": "F!max", "O!min": "F!min", "O!sup": "F!sup", "O!inf": "F!inf"}
_QUALIFIERS = ("bvar", "lowlimit", "uplimit", "condition", "degree")


def parse_content_mathml(text: str) -> Tree:
    """The OPT of one `<math>` element in Content MathML; raises ParseError (kind "invalid_mathml", …)."""
    if len(text) > MAX_CHARS:
        raise ParseError(f"input has {len(text)} characters, more than {MAX_CHARS}", MAX_CHARS, "too_long")
    if not text.strip():
        raise ParseError("input is empty", 0, "empty")
    if "<!DOCTYPE" in text or "<!ENTITY" in text:  # entity expansion is never needed here
        raise ParseError("DOCTYPE/ENTITY declarations are not accepted", text.find("<!"), "invalid_mathml")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise ParseError(f"malformed XML: {exc}", None, "invalid_mathml") from None
    converter = _Converter(root)
    node = converter.content(_strip_semantics(root))
    if node is None:
        raise ParseError("the math element has no content", None, "empty")
    return Tree(node, "opt")


def _tag(el: ET.Element) -> str:
    return el.tag.rpartition("}")[2]


def _strip_semantics(root: ET.Element) -> ET.Element:
    """The content-bearing element: `<math>` itself, or the Content annotation of `<semantics>`."""
    for el in root.iter():
        if _tag(el) == "annotation-xml" and "Content" in el.get("encoding", ""):
            return el
    return root


class _Converter:
    def __init__(self, root: ET.Element):
        self.shared = {el.get("id"): el for el in root.iter() if el.get("id")}
        self.depth = 0

    def content(self, container: ET.Element) -> Node | None:
        """A wrapper element (`math`, `annotation-xml`, `semantics`): one child, or a list of them."""
        children = [n for n in (self.convert(c) for c in container) if n is not None]
        if not children:
            return None
        return children[0] if len(children) == 1 else make("O!list", children)

    def convert(self, el: ET.Element) -> Node | None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ParseError(f"Content MathML nested deeper than {MAX_DEPTH}", None, "too_deep")
        try:
            return self._convert(el)
        finally:
            self.depth -= 1

    def _convert(self, el: ET.Element) -> Node | None:
        tag = _tag(el)
        if tag == "apply":
            return self.apply(el)
        if tag in ("math", "semantics", "annotation-xml"):
            return self.content(el)
        if tag == "share":
            target = self.shared.get((el.get("href") or "").lstrip("#"))
            return self.convert(target) if target is not None else leaf("E!")
        if tag == "interval":
            return make(_INTERVALS.get(el.get("closure", "closed"), "O!tuple"), self.args(list(el)))
        if tag in _CONTAINERS:
            return make(_CONTAINERS[tag], self.args(list(el)))
        if tag in ("annotation", "bvar", "degree", "lowlimit", "uplimit", "condition"):
            return None
        return self.symbol(el)

    def args(self, elements: list[ET.Element]) -> list[Node]:
        return [n for n in (self.convert(e) for e in elements if _tag(e) not in _QUALIFIERS) if n is not None]

    def symbol(self, el: ET.Element) -> Node | None:
        """A token element (`ci`, `cn`, `csymbol`, `mtext`) or an operator element (`<plus/>`)."""
        tag = _tag(el)
        if tag == "cn":
            return leaf(f"N!{(el.text or '').strip()}")
        if tag in ("ci", "csymbol", "mtext", "mi", "mo", "mn", "text"):
            text = "".join(el.itertext()).strip()
            if tag == "mtext" or any(_tag(c) == "mtext" for c in el):
                return leaf(f"T!{text}")
            name = _operator_label(text) if tag != "ci" or not _is_identifier(text) else None
            if name == _ABSENT:
                return None
            return leaf(name) if name and name != _TRANSPARENT else _identifier(text)
        if tag in CONSTANTS:
            return leaf(f"C!{CONSTANTS[tag]}")
        name = _operator_label(tag) or _LEAVES.get(tag)
        return leaf(name or f"O!{tag}")

    def apply(self, el: ET.Element) -> Node | None:
        children = list(el)
        if not children:
            return None
        head_el, rest = children[0], children[1:]
        args = self.args(rest)
        if _tag(head_el) == "apply":
            return self.compound(self.apply(head_el), args)
        head_text = "".join(head_el.itertext()).strip() if _tag(head_el) != "apply" else ""
        op = _operator_label(_tag(head_el)) if _tag(head_el) not in ("ci", "csymbol") else _operator_label(head_text)
        if op == _TRANSPARENT:
            return args[0] if len(args) == 1 else make("O!tuple", args)
        if op is None or op == _ABSENT:
            head = self.symbol(head_el)
            if head is None:
                return make("O!list", args) if args else None
            if head.children or head.label[:2] not in ("V!", "T!"):
                return make("O!apply", [head, *args])
            name = head.label[2:]
            named = _tag(head_el) == "ci" and name[:1].isalpha()  # `<ci>f</ci>` vs `<csymbol>bra</csymbol>`
            return make(f"F!{name}" if named else f"O!{name}", args)
        return self.operator(op, args, rest)

    def operator(self, op: str, args: list[Node], rest: list[ET.Element]) -> Node:
        if op == "O!root":
            degree = [self.content(e) for e in rest if _tag(e) == "degree"]
            return make(op, args + [d for d in degree if d is not None])
        if op in INTEGRALS or op in BIG_OPERATORS.values():
            if not any(_tag(e) in _QUALIFIERS for e in rest) and op in _FUNCTION_LIKE_BIG:
                return make(_FUNCTION_LIKE_BIG[op], args)
            return make(op, self.limits(rest) + _integrand(op, args))
        if op == "U!times":
            args = _apply_function_letters(args)
            return args[0] if len(args) == 1 else make(op, args)
        return make(op, args)

    def limits(self, rest: list[ET.Element]) -> list[Node]:
        """Pure Content MathML limits (`lowlimit`/`condition`, `uplimit`), in the SLT side's order."""
        found = {_tag(e): self.content(e) for e in rest if _tag(e) in ("lowlimit", "condition", "uplimit")}
        lower = found.get("lowlimit") or found.get("condition")
        return [n for n in (lower, found.get("uplimit")) if n is not None]

    def compound(self, head: Node | None, args: list[Node]) -> Node:
        """`(head)(args)`: a big operator with script limits, else `O!apply(head, args)`."""
        if head is None:
            return make("O!list", args)
        base, limits = _split_scripts(head)
        if base.label in _BIG_FORMS and not base.children and limits:
            return make(_BIG_FORMS[base.label], limits + args)
        if base.label in BIG_OPERATORS.values() and not base.children:
            return make(base.label, limits + _integrand(base.label, args))
        if base.label in _FUNCTION_LIKE_BIG.values() and not base.children and limits:
            return make(f"O!{base.label[2:]}", limits + args)
        return make("O!apply", [head, *args])


def _split_scripts(head: Node) -> tuple[Node, list[Node]]:
    """`O!SUP(O!SUB(base, lower), upper)` → (base, [lower, upper])."""
    lower = upper = None
    node = head
    while node.label in ("O!SUP", "O!SUB") and len(node.children) == 2:
        if node.label == "O!SUP":
            upper = upper or node.children[1][1]
        else:
            lower = lower or node.children[1][1]
        node = node.children[0][1]
    return node, [n for n in (lower, upper) if n is not None]


def _integrand(op: str, args: list[Node]) -> list[Node]:
    """Split a trailing `differential-d(x)` off an integral's body: [body, x]."""
    if op not in INTEGRALS or not args:
        return args
    body = args[-1]
    if body.label == "O!d" and len(body.children) == 1:
        return args[:-1] + [body.children[0][1]]
    if body.label == "U!times":
        factors = [child for _, child in body.children]
        diffs = [f for f in factors if f.label == "O!d" and len(f.children) == 1]
        if diffs:
            rest = [f for f in factors if f is not diffs[-1]]
            rest_node = rest[0] if len(rest) == 1 else make("U!times", rest)
            return args[:-1] + [rest_node, diffs[-1].children[0][1]]
    return args


def _apply_function_letters(args: list[Node]) -> list[Node]:
    """`times(f, x)` → `F!f(x)`, `times(f′, x)` → `O!apply(O!SUP(F!f, ′), x)`: LaTeXML's products made ours.

    LaTeXML writes `f(x)` and `fx` alike; a following power, index, differential or text (`hx^2`,
    `f\\,dx`, `g\\text{ and }`) is taken as a product, anything else as the argument.
    """
    out: list[Node] = []
    i = 0
    while i < len(args):
        head = _as_function(args[i])
        if (head is not None and i + 1 < len(args) and args[i + 1].label not in ("O!SUP", "O!SUB", "O!d")
                and not args[i + 1].label.startswith("T!")):
            out.append(make(head.label, [args[i + 1]]) if not head.children else make("O!apply", [head, args[i + 1]]))
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out


def _as_function(arg: Node) -> Node | None:
    """The function-letter reading of `f` (→ `F!f`) or of a scripted `f′`/`f_X` (base → `F!f`); else None."""
    if arg.label[:2] == "V!" and arg.label[2:] in FUNCTION_LETTERS and not arg.children:
        return leaf(f"F!{arg.label[2:]}")
    if arg.label not in ("O!SUP", "O!SUB") or len(arg.children) != 2:
        return None
    base = _as_function(arg.children[0][1])
    return None if base is None else make(arg.label, [base, arg.children[1][1]])


def _operator_label(name: str) -> str | None:
    if name in (_TRANSPARENT, _ABSENT):
        return name
    if name in _EXTRA_OPERATORS:
        return _EXTRA_OPERATORS[name]
    if name in INFIX:
        return INFIX[name].label
    if name in PREFIX:
        return PREFIX[name]
    if name in BIG_OPERATORS:
        return BIG_OPERATORS[name]
    if name in DELIMITED:
        return DELIMITED[name]
    if name in CMML_FUNCTIONS or name in FUNCTIONS:
        return f"F!{CMML_FUNCTIONS.get(name, name)}"
    return None


def _is_identifier(text: str) -> bool:
    """A `ci` naming a variable rather than carrying an operator symbol (`<ci>→</ci>`)."""
    return text not in INFIX and text not in PREFIX and text not in (_TRANSPARENT, _ABSENT)


def _identifier(text: str) -> Node:
    value = _plain_letters(text.removeprefix("italic-"))
    if value in CONSTANTS:
        return leaf(f"C!{CONSTANTS[value]}")
    if value.replace(".", "", 1).isdigit():
        return leaf(f"N!{value}")
    return leaf(f"V!{value}")


_ITALIC_RANGES = ((0x1D434, 0x1D467), (0x1D6E2, 0x1D71B))
"""Mathematical Italic Latin and Greek: LaTeXML's spelling of plain math letters (𝑥 for x)."""


def _plain_letters(text: str) -> str:
    """Italic math letters (𝑥, 𝜋, ℎ) → plain ones; bold 𝐰, script 𝒢, ℝ keep their style, as in our SLTs."""
    return "".join(unicodedata.normalize("NFKC", ch) if ch == "ℎ" or any(lo <= ord(ch) <= hi for lo, hi in
                                                                         _ITALIC_RANGES) else ch
                   for ch in text)
