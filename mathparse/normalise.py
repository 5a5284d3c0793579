"""One spelling per notation, shared by the LaTeX and the Presentation MathML readers.

Both readers build the same `layout.Box` baselines; what they hand over passes through here, so that a notation
written in different ways gives one SLT (MaRF's appendix A normalises its inputs the same way):
* characters: Unicode variants of a symbol become one character, the one LaTeXML writes (`⩽` → `≤`, `⟺` → `⇔`,
  `⋯` → `…`, `•` → `∙`, `∼` with a combining slash → `≁`), so LaTeX meets LaTeXML's MathML and the ARQMath
  Tangent strings made of it; `<=` typed for `≤` is `≤`;
* names: a named function or operator is one node however it is written (`\\sin`, `\\operatorname{sin}`,
  `\\mathrm{sin}`, `\\text{sin}`, `{\\rm sin}`, `<mi>sin</mi>`, and `sin` in plain letters before an argument);
* fonts: a font applies to everything inside its argument, scripts included, as TeX sets it;
* baselines (`finish_baseline` ends every baseline of both readers): prime characters, scripts on an empty base
  and differentials are attached the same way whichever reader made the boxes.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from mathparse import latex_symbols as sym
from mathparse.layout import CLOSERS, OPENERS, Box, group_fences, mark_differentials
from mathparse.tree import QUERY_VARIABLE

CHAR_ALIASES = {
    "−": "-", "–": "-", "·": "⋅", "（": "(", "）": ")", "，": ",", "µ": "μ",
    "⩽": "≤", "⩾": "≥", "⋯": "…", "•": "∙", "◻": "□", "∎": "■", "⤳": "↝",
    "⟺": "⇔", "⟹": "⇒", "⟸": "⇐", "⟶": "→", "⟵": "←", "⟷": "↔", "⟼": "↦",
}
"""Characters typed or rendered for one another: the Unicode minus, full-width punctuation, slanted `≤`, the long
arrows of `\\iff` / `\\implies` (LaTeXML draws `\\iff` as `⇔`), `\\cdots` / `\\ldots`, and the glyphs latex2mathml
and LaTeXML pick differently for `\\bullet`, `\\Box`, `\\blacksquare`, `\\leadsto`."""
DIGRAPHS = {"<=": "≤", ">=": "≥", "<<": "≪", ">>": "≫", ":=": ":="}
"""Two characters typed for one relation (`x<=y`); LaTeXML joins them into one operator, Tangent into one node."""
_DIGRAPH_BOXES = {**DIGRAPHS, "!!": "!!"}
_AMP = ["V!a", "V!m", "V!p", ";"]
BIG_OPERATOR_CHARS = frozenset(sym.BIG_OPERATORS.values())
PRIMES = {"′": 1, "″": 2, "‴": 3}

PLAIN_NAMES = frozenset(
    (sym.FUNCTIONS - {"id"}) | set(sym.OPERATOR_NAMES)
    | set("sinc supp argmax argmin arcsinh arccosh arctanh arccoth arsinh arcosh artanh erfc erfi".split())
)
"""Names read as an operator when written in plain letters before an argument (`sin x`, `log(x)`). The longer
names are here so that `sinc`, `supp`, `arcsinh` are not read as `sin c`, `sup p`, `arcsin h`; `id` is left out,
since `i\\,d\\phi` is far more common than the identity written in plain letters."""
_BARE_NAMES = {**sym.OPERATOR_NAMES, **{name: name for name in sym.OPERATOR_NAMES.values()}}
_MIN_AFFIXED_NAME = 3
"""A name glued to one-letter factors (`sinx`, `nlogn`) is split off only if it has at least this many letters:
`ln`, `tr`, `id` glued to a letter are too often a word or a product."""


def canonical(text: str) -> str:
    """`text` with composed characters, no invisible format characters (U+2061 function application, soft
    hyphens, direction marks) and each character replaced by its canonical alias."""
    if text.isascii():  # no ASCII character composes, is a format character or has an alias
        return text
    text = unicodedata.normalize("NFC", text)
    return "".join(CHAR_ALIASES.get(char, char) for char in text
                   if char.isascii() or unicodedata.category(char) != "Cf")


def symbol_box(char: str) -> Box:
    """The box of one symbol character: a variable, a number, or a bare operator that may fence or take limits."""
    char = canonical(char) or char
    fence = char if char in OPENERS or char in CLOSERS else ""
    return Box(sym.symbol_label(char), limits=char in BIG_OPERATOR_CHARS, fence=fence)


def is_name(word: str) -> bool:
    """A word that names a function or operator wherever it is written (`sin`, `lim`, `limsup`, `lim sup`)."""
    return word in PLAIN_NAMES or word in _BARE_NAMES


def name_box(word: str) -> Box:
    """The one node of a named function or operator: `lim`, `sup`, `det`, `mod` are bare operator symbols as
    Tangent writes them; other names (`sin`, `Hom`) are variables. Names such as `lim` and `max` take limits."""
    bare = _BARE_NAMES.get(word)
    label = bare if bare is not None else "V!" + word
    return Box(label, limits=(bare or word) in sym.LIMIT_NAMES)


def text_box(text: str) -> Box | None:
    """`\\text{…}` content: a single letter or a known name is that symbol or name (`\\text{f}` = `f`,
    `\\text{sin}` = `\\sin`), anything else stays text; styled letters (`\\textbf`) lose their style."""
    text = unicodedata.normalize("NFKC", text).strip()
    if not text:
        return None
    variable = _TEXT_VARIABLE.fullmatch(text)
    if variable:
        return variable_box(variable.group(1))
    if len(text) == 1 and text.isalpha():
        return symbol_box(text)
    if is_name(text):
        return name_box(text)
    return Box("T!" + text)


def finish_baseline(boxes: list[Box], plain_names: bool = True) -> list[Box]:
    """A baseline as both readers end it: digraphs and primes joined, plain-letter names joined (unless the letters
    are upright text), differentials marked, fences paired (after the marking, while an integral and its `d` still
    sit on one level, so that `|\\int f\\,dx|` marks its `dx` too), then scripts of an empty base moved.

    Names are joined before the marking (the `d` of `det` is no differential) and again inside the groups the
    pairing made, where a name may end its group (`|cosx|`), as it ends LaTeXML's `<mrow>`."""
    boxes = join_digraphs(boxes)
    if [box.label for box in boxes[:4]] == _AMP and not any(box.rels for box in boxes[:4]):
        boxes = boxes[4:]  # `&amp;` escaped twice: its `&` became the column break, `amp;` is left as letters
    if plain_names:
        boxes = join_plain_names(boxes)
    mark_differentials(boxes)
    boxes = group_fences(boxes)
    if plain_names:
        _join_names_in_groups(boxes)
    return attach_prescripts(boxes)


def _join_names_in_groups(boxes: list[Box]) -> None:
    for box in boxes:
        if box.cells is not None:
            box.cells = [join_plain_names(cell) for cell in box.cells]
            for cell in box.cells:
                _join_names_in_groups(cell)


def join_digraphs(boxes: list[Box]) -> list[Box]:
    """`<` `=` typed for `≤` (and `!!`, `:=`, `<<`) is one symbol, prime characters are the primes of the symbol
    before them: LaTeXML joins the first into one operator and attaches the second like `f'`."""
    out: list[Box] = []
    for box in boxes:
        previous = out[-1] if out else None
        if previous is None or previous.rels or previous.cells is not None or box.cells is not None:
            out.append(box)
        elif previous.label + box.label in _DIGRAPH_BOXES:
            out[-1] = symbol_box(_DIGRAPH_BOXES[previous.label + box.label])
            out[-1].rels = box.rels
        elif box.label in PRIMES and not box.rels and previous.label not in PRIMES:  # `^{\\prime\\prime}` is counted later
            previous.primes += PRIMES[box.label]
        else:
            out.append(box)
    return out


def attach_prescripts(boxes: list[Box]) -> list[Box]:
    """Scripts on an empty base: at the start of a baseline (`{}^{14}C`, `{}_n\\int`) they are pre-scripts of the
    symbol that follows (`c` above, `d` below), where LaTeXML's `<mmultiscripts>` puts them; after a symbol
    (LaTeXML's `<msup><mi/>…` for `x{}^2`) they are its scripts, where the LaTeX reader attaches them."""
    if len(boxes) < 2 or not any(box.label == "E!" and box.rels for box in boxes):
        return boxes
    out: list[Box] = []
    for index, box in enumerate(boxes):
        movable = box.label == "E!" and box.rels and not box.primes and set(box.rels) <= {"a", "b"}
        if movable and index == 0 and (_is_argument(boxes[1]) or boxes[1].limits):
            boxes[1].attach("c", box.rels.get("a", []))
            boxes[1].attach("d", box.rels.get("b", []))
        elif movable and out:
            for relation, script in box.rels.items():
                out[-1].attach(out[-1].script_relation(relation == "a"), script)
        else:
            out.append(box)
    return out


def query_variable_box(content: str) -> Box | None:
    """What LaTeXML wrote as `\\qvar@construct{…}` or `<mi>qvar_…</mi>`. NTCIR's topics mark their query variables
    so (`x0`, `x1`: a letter and digits), which become `W!x0`; ARQMath's run marked stray characters so (`$`, `?`,
    `missing`): a stray `$` is nothing, anything else a text node."""
    content = content.replace("\\ ", " ").strip()
    if VARIABLE_NAME.fullmatch("".join(content.split())):
        return variable_box(content)
    return Box("T!" + content) if content and content != "$" else None


def variable_box(name: str) -> Box:
    """A query variable: `\\qvar{x}` (Approach0's syntax, also NTCIR-12's `\\qvar{*1*}`), a LaTeXML `x0`. Its name
    loses styles and spaces (NTCIR's MathML wraps `x0` over lines, or sets it bold)."""
    return Box(f"{QUERY_VARIABLE}!" + "".join(unicodedata.normalize("NFKC", name).split()))


VARIABLE_NAME = re.compile(r"[A-Za-z][0-9]*")
"""A query variable's name as LaTeXML writes one (`x0`) and as `?x0` is typed: a letter, then digits."""
_TEXT_VARIABLE = re.compile(r"\?\{([A-Za-z][0-9]*)\}")
"""NTCIR's other spelling of a query variable, `\\text{?{x0}}`."""


def join_plain_names(boxes: list[Box]) -> list[Box]:
    """Plain letters spelling a known name directly before an argument become that name (`sin x`, `log(x)`,
    `sin^2 x`). Since TeX ignores spaces, a name of three letters or more may also be glued to one-letter factors,
    one before and one after it (`sinx` = `sin x`, `isin\\theta` = `i sin θ`, `nlogn` = `n log n`): the letter after
    it is its argument, or else an argument must follow the run.

    Only a whole run of one-letter variables counts, so `cost(x)`, `design` or `xmax=1` stay letters; the scripts of
    the name's last letter move to the name.
    """
    return _rewrite_runs(boxes, _named_run)


def join_upright_words(boxes: list[Box]) -> list[Box]:
    """Upright letters set together are one name, as LaTeXML reads them: `\\mathrm{Hom}`, `{\\rm mul}_b`."""
    return _rewrite_runs(boxes, lambda run, _: [_as_name("".join(box.label[2:] for box in run), run[-1])]
                         if len(run) > 1 else None)


def _rewrite_runs(boxes: list[Box], rewrite: Callable[[list[Box], Box | None], list[Box] | None]) -> list[Box]:
    """`boxes` with each maximal run of plain one-letter variables replaced by `rewrite(run, following box)` unless
    that is None; a letter with scripts ends its run."""
    out: list[Box] = []
    start = 0
    while start < len(boxes):
        end = start
        while end < len(boxes) and _plain_letter(boxes[end]):
            end += 1
            if boxes[end - 1].rels:
                break
        if end == start:
            out.append(boxes[start])
            start += 1
            continue
        run = boxes[start:end]
        out.extend(rewrite(run, boxes[end] if end < len(boxes) else None) or run)
        start = end
    return out


def _plain_letter(box: Box) -> bool:
    value = box.label[2:]
    return (box.label.startswith("V!") and len(value) == 1 and value.isascii() and value.isalpha()
            and box.cells is None and not box.primes)


def _named_run(run: list[Box], following: Box | None) -> list[Box] | None:
    """`run` with the name it spells joined, or None: the whole run, else a name glued to one-letter factors."""
    word = "".join(box.label[2:] for box in run)
    applied = following is not None and _is_argument(following)
    if word in PLAIN_NAMES:
        return [_as_name(word, run[-1])] if applied else None
    for before, after in ((0, 1), (1, 1), (1, 0)):
        end = len(word) - after
        name = word[before:end]
        # A glued last letter is the argument only when no other follows: `sinx+1`, but `cost(x)` is a word.
        if len(name) >= _MIN_AFFIXED_NAME and name in PLAIN_NAMES and bool(after) != applied:
            return run[:before] + [_as_name(name, run[end - 1])] + run[end:]
    return None


def _as_name(word: str, last: Box) -> Box:
    box = name_box(word)
    for relation, script in last.rels.items():
        box.attach(box.script_relation(relation == "a") if relation in ("a", "b") else relation, script)
    return box


def _is_argument(box: Box) -> bool:
    """What a function can be applied to: a symbol, number, group, fraction or root, or an opening fence."""
    return box.label[:2] in ("V!", "N!", "M!", "O!") or box.fence in OPENERS or box.label in ("∂", "∇")


def restyle(boxes: list[Box], style: str) -> None:
    """Set one-character letters and digits in `style` (`\\mathbb{R^2}` = ℝ^𝟚), through scripts and cells."""
    stack = list(boxes)
    while stack:
        box = stack.pop()
        value = box.label[2:]
        if box.label[:2] in ("V!", "N!") and len(value) == 1:
            box.label = sym.symbol_label(sym.styled(value, style))
        for script in box.rels.values():
            stack.extend(script)
        for cell in box.cells or ():
            stack.extend(cell)
