"""Handlers for LaTeX commands that take arguments or build structure: fractions, roots, fences, fonts,
accents, text, environments. Each handler reads its arguments through the parser and appends boxes.
"""
from __future__ import annotations

from collections.abc import Callable, Collection

from mathparse import latex_symbols as sym
from mathparse.errors import ParseError
from mathparse.layout import CLOSERS, OPENERS, Box, fenced_group, is_bare_table, matrix_box
from mathparse.normalise import (
    VARIABLE_NAME,
    canonical,
    name_box,
    query_variable_box,
    restyle,
    symbol_box,
    text_box,
    variable_box,
)

_NEGATIONS = {"=": "≠", "∈": "∉", "<": "≮", ">": "≯", "≤": "≰", "≥": "≱", "⊂": "⊄", "⊆": "⊈", "≡": "≢",
              "∃": "∄", "∣": "∤", "∼": "≁", "≈": "≉", "≅": "≇"}
_DELIMITERS = {".": "", "<": "⟨", ">": "⟩", "\\{": "{", "\\}": "}"}
_UNITS = frozenset("pt em ex mu cm mm in bp pc dd cc sp".split())


def fraction(parser, token, boxes, depth) -> None:
    boxes.append(_fraction_box(parser, depth))


def binomial(parser, token, boxes, depth) -> None:
    """Drawn as a fraction without a bar inside parentheses; LaTeXML and Tangent write it that way too."""
    boxes.append(fenced_group("(", ")", [_fraction_box(parser, depth)]))


def _fraction_box(parser, depth: int) -> Box:
    box = Box("O!divide")
    box.attach("o", parser.argument(depth))
    box.attach("u", parser.argument(depth))
    return box


def root(parser, token, boxes, depth) -> None:
    box = Box("O!root")
    box.attach("c", parser.optional_argument(depth) or [])
    box.attach("w", parser.argument(depth))
    boxes.append(box)


def left(parser, token, boxes, depth) -> None:
    """`\\left( … \\right)`: must pair up, unlike bare fences, which stay symbols when unpaired."""
    opening = delimiter(parser, token)
    content = parser.expression(depth + 1)
    if parser.i >= len(parser.tokens) or parser.tokens[parser.i].text != r"\right":
        raise ParseError(r"\left without a matching \right", token.pos, "unbalanced_delimiters")
    parser.i += 1
    closing = delimiter(parser, parser.tokens[parser.i - 1])
    if _pairs(opening, closing) and not (is_bare_table(content) and "" in (opening, closing)):
        boxes.append(fenced_group(opening, closing, content))
    else:  # ⌊x⌋, ⟨a,b⟩ and a brace beside a table stay symbols around their content, as LaTeXML leaves them
        boxes.extend([Box(opening)] * bool(opening) + content + [Box(closing)] * bool(closing))


def _pairs(opening: str, closing: str) -> bool:
    """`\\left. f \\right|_{x=0}` stays a bar after its content, as LaTeXML sets it: only two real fences pair."""
    return bool(opening and closing) and (opening in OPENERS or closing in CLOSERS or closing in OPENERS)


def delimiter(parser, token) -> str:
    if parser.i >= len(parser.tokens):
        raise ParseError(f"{token.text} needs a delimiter", token.pos, "unbalanced_delimiters")
    text = parser.tokens[parser.i].text
    parser.i += 1
    if text in _DELIMITERS:
        return _DELIMITERS[text]
    return (sym.symbol_char(text) or text) if text.startswith("\\") else text


def font(parser, token, boxes, depth) -> None:
    argument = parser.argument(depth)
    restyle(argument, sym.FONT_STYLES[token.text])
    boxes.extend(argument)


def upright(parser, token, boxes, depth) -> None:
    """`\\operatorname{Tr}`, `\\mathrm{Ord}`: a multi-letter name is one identifier, like `\\sin`."""
    argument = parser.upright(lambda: parser.argument(depth))
    if token.text.endswith("*") and len(argument) == 1:
        argument[0].limits = True  # `\operatorname*{argmax}_x`
    boxes.extend(argument)


def text(parser, token, boxes, depth) -> None:
    """`\\text{if $n=1$,}`: the words are text, what sits between dollars is math again (if it parses)."""
    content = parser.raw_group()
    parts = content.split("$")
    try:
        math = [parser.nested(part, depth) for part in parts[1::2]]
    except ParseError:
        parts, math = [content], []
    for index, part in enumerate(parts):
        if index % 2:
            boxes.extend(math[index // 2])
        elif (box := text_box(part)) is not None:
            boxes.append(box)


def accent(parser, token, boxes, depth) -> None:
    relation, mark_char = sym.ACCENTS[token.text]
    base = parser.argument(depth) or [Box("E!")]  # `\tilde{}`: a mark over nothing, as LaTeXML sets it
    mark = Box(mark_char, limits=True)
    base[-1].attach(relation, [mark])
    boxes.extend(base)
    follow = parser.tokens[parser.i].kind if parser.i < len(parser.tokens) else ""
    if mark_char in "⏟⏞" and follow == ("_" if relation == "u" else "^"):
        parser.i += 1  # the label of an under/over brace hangs from the brace itself
        mark.attach(relation, parser.argument(depth))


def over_under(parser, token, boxes, depth) -> None:
    script = parser.argument(depth)
    base = parser.argument(depth) or [Box("E!")]
    base[-1].attach(sym.OVER_UNDER[token.text], script)
    boxes.extend(base)


def labelled_arrow(parser, token, boxes, depth) -> None:
    arrow = Box(sym.ARROWS_WITH_LABELS[token.text])
    arrow.attach("u", parser.optional_argument(depth) or [])
    arrow.attach("o", parser.argument(depth))
    boxes.append(arrow)


def big_operator(parser, token, boxes, depth) -> None:
    boxes.append(Box(sym.BIG_OPERATORS[token.text], limits=True))


def named_function(parser, token, boxes, depth) -> None:
    boxes.append(name_box(token.text[1:]))


def modulus(parser, token, boxes, depth) -> None:
    boxes.append(fenced_group("(", ")", [Box("mod")] + parser.argument(depth)))


def negation(parser, token, boxes, depth) -> None:
    negated: list[Box] = []
    if parser.i < len(parser.tokens):
        parser.atom(negated, depth + 1, single=True)
    if not negated:
        boxes.append(Box("/"))
        return
    target = negated[0]
    target.label = _NEGATIONS.get(target.label) or canonical(target.label + "\u0338")
    target.fence = ""
    boxes.extend(negated)


def sized_delimiter(parser, token, boxes, depth) -> None:
    r"""`\big(` needs nothing, but `\big{\{}` wraps its delimiter in braces, which must not hide it from pairing."""
    tokens, i = parser.tokens, parser.i
    if i + 2 < len(tokens) and tokens[i].kind == "{" and tokens[i + 2].kind == "}" and tokens[i + 1].kind in ("char", "cmd"):
        parser.i += 1
        parser.atom(boxes, depth + 1, single=True)
        parser.i += 1


def skip_argument(parser, token, boxes, depth) -> None:
    parser.optional_argument(depth)  # `\color[rgb]{0,1,0}`
    parser.raw_group()


def query_variable(parser, token, boxes, depth) -> None:
    """`\\qvar{x}`, a query variable named x; `\\qvar@construct{…}` as LaTeXML writes one, or ARQMath's stray
    character (`query_variable_box`). A `\\qvar` without a name stays text."""
    tokens = parser.tokens
    if "".join(token.text for token in tokens[parser.i:parser.i + 10]) == "@construct":
        parser.i += 10
        box = query_variable_box(parser.raw_group())
        if box is not None:
            boxes.append(box)
        return
    name = parser.raw_group().strip() if parser.i < len(tokens) and tokens[parser.i].kind == "{" else ""
    if not name or "{" in name or "}" in name:
        raise ParseError(r"\qvar needs a name in braces, like \qvar{x}", token.pos, "missing_argument")
    boxes.append(variable_box(name))


def question_variable(parser, token) -> Box | None:
    """`?x`, `?x0`: a query variable as Approach0's and zbMATH's users type one, read as `\\qvar{x}` is. Its name is
    the letter and digits right after the `?` (`?ab` is ?a times b, as letters side by side are). Only in a query:
    in a corpus formula a `?` is a symbol, and `\\text{?}` is text in both. None when no letter follows: a `?`
    that ends a formula copied from a question (`f\\circ g = g\\circ f?`) is the symbol it is in the corpus."""
    name = VARIABLE_NAME.match(parser.source, token.pos + 1)
    if name is None:
        return None
    parser.i += len(name.group())  # one token per letter or digit
    return variable_box(name.group())


def skip_dimension(parser, token, boxes, depth) -> None:
    """`\\hskip 35.5pt`, `\\kern-1mu`, `\\mkern{3mu}`: the command and its dimension leave no trace."""
    tokens = parser.tokens
    if parser.i < len(tokens) and tokens[parser.i].kind == "{":
        parser.raw_group()
        return
    if parser.i < len(tokens) and tokens[parser.i].text in "+-":
        parser.i += 1
    while parser.i < len(tokens) and tokens[parser.i].kind == "char" and (tokens[parser.i].text in ".,"
                                                                          or tokens[parser.i].text.isdigit()):
        parser.i += 1
    unit = "".join(token.text for token in tokens[parser.i:parser.i + 2] if token.kind == "char")
    if unit in _UNITS:
        parser.i += 2


def transparent(parser, token, boxes, depth) -> None:
    boxes.extend(parser.argument(depth))


def coloured(parser, token, boxes, depth) -> None:
    parser.optional_argument(depth)
    parser.raw_group()
    boxes.extend(parser.argument(depth))


def fence_symbol(parser, token, boxes, depth) -> None:
    char = sym.symbol_char(token.text)
    if char is None:  # registered only for fence commands of the symbol table
        raise LookupError(f"fence command {token.text} has no symbol character")
    boxes.append(symbol_box(char))


def environment(parser, token, boxes, depth) -> None:
    """A known environment as its table and fences. A package's own (prftree's `prfenv`, t-angles' `tangle`, a
    paper's `\newenvironment`) is read as a table of its cells, the way an unknown macro is read as a name: 4 % of
    the display formulas of TeX Live's science documentation were refused for theirs."""
    name = parser.raw_group().strip()
    if name not in sym.ENVIRONMENT_FENCES:
        parser.optional_argument(depth)  # `\begin{ZX}[ampersand replacement=\&]`
    if name in sym.ENVIRONMENTS_WITH_SPEC:
        parser.optional_argument(depth)  # `\begin{array}[t]{cc}`
        parser.raw_group()
    rows = table_rows(parser, token, depth, closing=r"\end")
    end_name = parser.raw_group().strip()
    if end_name != name:
        raise ParseError(f"\\begin{{{name}}} ended by \\end{{{end_name}}}", token.pos, "unbalanced_environment")
    if name in sym.SINGLE_CELL_ENVIRONMENTS:
        boxes.extend(box for row in rows for cell in row for box in cell)
    elif name not in sym.ENVIRONMENT_FENCES:
        boxes.append(matrix_box("", rows))
    elif sym.ENVIRONMENT_FENCES[name] in ("{", "}"):  # cases: one brace beside a table, as LaTeXML writes it
        brace = Box(sym.ENVIRONMENT_FENCES[name])
        table = matrix_box("", rows)
        boxes.extend([brace, table] if brace.label == "{" else [table, brace])
    else:
        boxes.append(matrix_box(sym.ENVIRONMENT_FENCES[name], rows))


def braced_table(parser, token, boxes, depth) -> None:
    r"""`\substack{a\\b}`, `\pmatrix{a&b\cr c&d}`: a table whose rows end at the closing brace."""
    if parser.i >= len(parser.tokens) or parser.tokens[parser.i].kind != "{":
        boxes.extend(parser.argument(depth))
        return
    parser.i += 1
    table = matrix_box(sym.PLAIN_TEX_TABLES.get(token.text, ""), table_rows(parser, token, depth, closing="}"))
    if table.label.startswith("M!{"):  # \cases, like the cases environment
        table.label = "M!" + table.label[3:]
        boxes.append(Box("{"))
    boxes.append(table)


def table_rows(parser, token, depth: int, closing: str) -> list[list[list]]:
    """Cells split by `&` and rows by `\\\\`, up to `closing` (consumed); a trailing empty row is dropped."""
    rows: list[list[list]] = [[]]
    while True:
        rows[-1].append(parser.expression(depth + 1))
        if parser.i >= len(parser.tokens):
            raise ParseError(f"{token.text} is never closed", token.pos, "unbalanced_environment")
        stop = parser.tokens[parser.i]
        parser.i += 1
        if stop.kind == "&":
            continue
        if stop.kind == "row":
            parser.optional_argument(depth)  # `\\[2pt]`
            rows.append([])
        elif stop.text == closing:
            break
        else:
            raise ParseError(f"{stop.text!r} inside {token.text} closes nothing", stop.pos, "unbalanced_environment")
    if len(rows) > 1 and not any(rows[-1]):
        rows.pop()
    return rows


_BY_NAME: dict[str, Callable] = {
    r"\left": left, r"\sqrt": root, r"\begin": environment, r"\not": negation, r"\pmod": modulus,
    **{name: sized_delimiter for name in sym.SIZED_DELIMITERS},
    r"\textcolor": coloured, r"\substack": braced_table, r"\qvar": query_variable,
    **{name: braced_table for name in sym.PLAIN_TEX_TABLES},
    **{name: fence_symbol for name in (r"\{", r"\}", r"\|", r"\lvert", r"\rvert", r"\lVert", r"\rVert",
                                       r"\vert", r"\Vert", r"\lbrace", r"\rbrace", r"\lbrack", r"\rbrack")},
}
_BY_CATEGORY: tuple[tuple[Collection[str], Callable], ...] = (
    (sym.FRACTIONS, fraction), (sym.BINOMIALS, binomial), (sym.FONT_STYLES, font), (sym.UPRIGHT_NAMES, upright),
    (sym.TEXT_COMMANDS, text), (sym.ACCENTS, accent), (sym.OVER_UNDER, over_under),
    (sym.ARROWS_WITH_LABELS, labelled_arrow), (sym.BIG_OPERATORS, big_operator),
    (sym.SKIP_ONE_ARGUMENT, skip_argument), (sym.DIMENSION_SKIPS, skip_dimension), (sym.TRANSPARENT, transparent),
    ({"\\" + name for name in sym.FUNCTIONS | set(sym.OPERATOR_NAMES)}, named_function),
)
_HANDLERS = {**{name: handler for names, handler in _BY_CATEGORY for name in names}, **_BY_NAME}


def handler_for(command: str) -> Callable | None:
    """The structural handler of a command, or None for plain symbols and unknown macros."""
    return _HANDLERS.get(command)
