"""Markdown files as sections: `#` and `##` headings start them (the first `#` before any other heading is the
document's title), math is what markdown-it's dollarmath (`$…$`, `$$…$$`) and amsmath plugins find, `\\(…\\)` and
`\\[…\\]` (the rules below) and fenced ```math blocks; code spans and other code blocks are never math (a code
span stays as words, a code block is left out). A delimiter pair left in a section's words (a display broken by
a blank line in the middle of a paragraph) is one problem of its document, so the job reports what was not read.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import PurePosixPath

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.amsmath import amsmath_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.utils import is_code_block

from corpora.documents.archive import decoded
from corpora.documents.latex_math import latex_formulas
from corpora.documents.posts import BREAK, Document, Formula, Piece, Section, body
from corpora.documents.problems import ReadProblem

SECTION_LEVELS = 2
"""`#` and `##` start a post; deeper headings stay in the text as a paragraph of their own."""
_BLOCK_ENDS = frozenset({"paragraph_close", "list_item_close", "blockquote_close", "tr_close", "th_close",
                         "td_close", "bullet_list_close", "ordered_list_close", "table_close"})
_TEXT = ("text", "text_special")
_BRACKETS = ("[", "]", "(", ")")
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
"""A comment, or an unclosed one to the end (so that many openings cost one scan)."""
_CLOSING_LINE = re.compile(r"\\\][ \t]*(?:\(([^)$\r\n]+?)\)[ \t]*)?")
"""What may follow a display's `\\]` on its line for it to be a block: nothing, or a `(label)` as dollarmath reads."""
_UNREAD = tuple((shown, re.compile(rf"{opening}((?:(?!{opening}).)*?){closing}", re.DOTALL)) for shown, opening, closing
                in ((r"\[ … \]", r"\\\[", r"\\\]"), (r"\( … \)", r"\\\(", r"\\\)"), ("$$ … $$", r"\$\$", r"\$\$")))
"""Each pair as a problem shows it, and its pattern; the content may not hold another opening, so that a text
of many openings and no closing is scanned once, not once per opening."""


@cache
def _parser() -> MarkdownIt:
    # text_join would fold `\[` escapes into plain `[`, and the unread-pair check needs the escapes as written.
    return (MarkdownIt("commonmark").enable("table").disable("text_join")
            .use(dollarmath_plugin, allow_space=True, allow_digits=False, allow_labels=True, double_inline=True)
            .use(_brackets_plugin).use(amsmath_plugin))


def _brackets_plugin(md: MarkdownIt) -> None:
    """`\\(…\\)` and `\\[…\\]` as dollarmath's tokens. Not mdit-py-plugins' texmath: it has no rule for `\\[` inside a
    paragraph (where the `escape` rule turns it into `[`, and its block rule cannot interrupt a paragraph), its block
    rule drops the text after `\\]` on that line, and its rules take dollarmath's names, so one cannot be ordered or
    disabled without the other."""
    md.inline.ruler.before("escape", "bracket_inline", _inline_rule("\\(", "\\)", "math_inline"))
    md.inline.ruler.before("escape", "bracket_display", _inline_rule("\\[", "\\]", "math_inline_double"))
    md.block.ruler.before("fence", "bracket_block", _bracket_block)


def _inline_rule(opening: str, closing: str, kind: str) -> Callable[[StateInline, bool], bool]:
    """A pair within one paragraph (across its lines too); no other opening inside, which also keeps a paragraph
    of many openings linear."""
    pattern = re.compile(rf"{re.escape(opening)}((?:(?!{re.escape(opening)}).)+?){re.escape(closing)}", re.DOTALL)

    def rule(state: StateInline, silent: bool) -> bool:
        match = pattern.match(state.src, state.pos) if state.src.startswith(opening, state.pos) else None
        if match is None:
            return False
        if not silent:
            token = state.push(kind, "math", 0)
            token.content, token.markup = match[1], opening
        state.pos = match.end()
        return True
    return rule


def _bracket_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """`\\[` opening a line, up to the line its `\\]` ends (blank lines inside allowed, as texmath allowed them):
    a `math_block`, or a `math_block_label` with `\\] (label)`. A `\\]` with words after it is left to the inline
    rule, so the words are kept; a line of a blockquote is read without its `>`."""
    position = state.bMarks[start] + state.tShift[start]
    if is_code_block(state, start) or not state.src.startswith("\\[", position):
        return False
    position += 2
    lines: list[str] = []
    for line in range(start, end):
        text = state.src[position if line == start else state.bMarks[line]:state.eMarks[line]]
        close, opening = text.find("\\]"), text.find("\\[")
        if opening != -1 and (close == -1 or opening < close):
            return False
        if close != -1:
            closing = _CLOSING_LINE.fullmatch(text, close)
            if closing is None:
                return False
            if not silent:
                token = state.push("math_block_label" if closing[1] else "math_block", "math", 0)
                token.block, token.markup, token.map = True, "\\[", [start, line + 1]
                token.content = "\n".join([*lines, text[:close]])
                token.info = re.sub(r"\s+", "-", closing[1] or "")  # as dollarmath names `$$x$$ (eq 1)`
            state.line = line + 1
            return True
        lines.append(text)
    return False


def markdown_document(data: bytes, path: str) -> Document:
    return markdown_sections([decoded(data)], path)


def markdown_sections(texts: Iterable[str], path: str) -> Document:
    """The sections of Markdown texts read one after another, each parsed on its own (a notebook's cells, which
    Jupyter renders apart: an unclosed fence in one must not swallow the next)."""
    document = Document(path, "")
    section = Section("", path)
    document.sections.append(section)
    words: list[list[str]] = [[]]
    headings = 0
    for tokens in map(_parser().parse, texts):
        for index, token in enumerate(tokens):
            if token.type == "heading_open":
                level = int(token.tag[1:])
                heading = _plain(tokens[index + 1].children or [])
                headings += 1
                if level == 1 and headings == 1 and not document.title:
                    document.title = heading
                elif level <= SECTION_LEVELS:
                    section = document.section(heading, level, path)
                    words.append([])
                else:
                    section.pieces.extend([BREAK, heading, BREAK])
            elif token.type == "inline" and not (index and tokens[index - 1].type == "heading_open"):
                section.pieces.extend(_inline(token.children or []))
                words[-1].append(_written(token.children or []))
            else:
                section.pieces.extend(_block(token))
                if token.type == "html_block":  # left out of the post, so a formula in it would vanish unsaid
                    words[-1].append(_HTML_COMMENT.sub(" ", token.content))
    document.title = document.title or PurePosixPath(path).stem
    if problem := _unread(document.sections, words):
        document.problems.append(problem)
    return document


def _block(token: Token) -> list[Piece]:
    """What a block token gives besides its inline text: display formulas, or the break that ends it."""
    if token.type in ("math_block", "math_block_label", "amsmath") or (
            token.type == "fence" and token.info.strip().lower() == "math"):
        formulas = latex_formulas(token.content, display=True)
        if token.type == "math_block_label" and len(formulas) == 1 and isinstance(formulas[0], Formula):
            formulas = [Formula(formulas[0].text, "latex", True, formulas[0].anchor or token.info.strip())]
        return [*formulas]
    if token.type in _BLOCK_ENDS or token.type in ("fence", "code_block"):
        return [BREAK]
    return []


def _inline(children: list[Token]) -> list[Piece]:
    pieces: list[Piece] = []
    for index, child in enumerate(children):
        if child.type in _TEXT and index and children[index - 1].type in _TEXT:
            pieces[-1] = f"{pieces[-1]}{child.content}"  # what text_join would have joined
        elif child.type in ("text", "text_special", "code_inline"):
            pieces.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            pieces.append(" ")
        elif child.type in ("math_inline", "math_inline_double"):
            pieces.extend(latex_formulas(child.content, display=child.type == "math_inline_double"))
        elif child.type == "image":
            pieces.extend(_inline(child.children or []))
    return pieces


def _written(children: list[Token]) -> str:
    """The words as written, outside code and math: an escaped bracket keeps its backslash (`\\[` is how an unread
    display shows), any other escape or entity is a space (`\\$\\$` is meant as dollars)."""
    parts = []
    for child in children:
        if child.type == "text" or (child.type == "text_special" and child.content in _BRACKETS):
            parts.append(child.markup or child.content)
        elif child.type == "image":
            parts.append(_written(child.children or []))
        else:
            parts.append("\n" if child.type in ("softbreak", "hardbreak") else " ")
    return "".join(parts)


def _unread(sections: list[Section], words: list[list[str]]) -> ReadProblem | None:
    """The problem of the first section whose words still hold a delimiter pair around something, if any."""
    for section, written in zip(sections, words):
        text = "\n\n".join(written)
        for shown, pattern in _UNREAD:
            if any(match[1].strip() for match in pattern.finditer(text)):
                return ReadProblem(section.file, None, "unread-delimiters",
                                   f"section {section.heading or '(before the first)'!r}: "
                                   f"text holds an unread formula delimiter pair {shown}")
    return None


def _plain(children: list[Token]) -> str:
    text, _ = body([piece for piece in _inline(children) if not isinstance(piece, type(BREAK))])
    return " ".join(text.split())
