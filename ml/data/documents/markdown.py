"""Markdown files as sections: `#` and `##` headings start them (the first `#` before any other heading is the
document's title), math is what markdown-it's dollarmath, texmath (`\\(…\\)`, `\\[…\\]`) and amsmath plugins
find plus fenced ```math blocks; code spans and other code blocks are never math (a code span stays as words,
a code block is left out).
"""
from __future__ import annotations

from functools import cache
from pathlib import PurePosixPath

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.amsmath import amsmath_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.texmath import texmath_plugin

from ml.data.documents.archive import decoded
from ml.data.documents.latex_math import latex_formulas
from ml.data.documents.posts import BREAK, Document, Formula, Piece, Section, body

SECTION_LEVELS = 2
"""`#` and `##` start a post; deeper headings stay in the text as a paragraph of their own."""
_BLOCK_ENDS = frozenset({"paragraph_close", "list_item_close", "blockquote_close", "tr_close", "th_close",
                         "td_close", "bullet_list_close", "ordered_list_close", "table_close"})


@cache
def _parser() -> MarkdownIt:
    return (MarkdownIt("commonmark").enable("table")
            .use(dollarmath_plugin, allow_space=True, allow_digits=False, allow_labels=True)
            .use(texmath_plugin, delimiters="brackets").use(amsmath_plugin))


def markdown_document(data: bytes, path: str) -> Document:
    return markdown_sections(decoded(data), path)


def markdown_sections(text: str, path: str) -> Document:
    """The sections of Markdown text (a file's, or a notebook's Markdown cells joined)."""
    document = Document(path, "")
    section = Section("", path)
    document.sections.append(section)
    tokens = _parser().parse(text)
    headings = 0
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            level = int(token.tag[1:])
            heading = _plain(tokens[index + 1].children or [])
            headings += 1
            if level == 1 and headings == 1 and not document.title:
                document.title = heading
            elif level <= SECTION_LEVELS:
                section = document.section(heading, level, path)
            else:
                section.pieces.extend([BREAK, heading, BREAK])
        elif token.type == "inline" and not (index and tokens[index - 1].type == "heading_open"):
            section.pieces.extend(_inline(token.children or []))
        elif token.type in ("math_block", "math_block_label", "amsmath") or (
                token.type == "fence" and token.info.strip().lower() == "math"):
            formulas = latex_formulas(token.content, display=True)
            if token.type == "math_block_label" and len(formulas) == 1 and isinstance(formulas[0], Formula):
                formulas = [Formula(formulas[0].text, "latex", True, formulas[0].anchor or token.info.strip())]
            section.pieces.extend(formulas)
        elif token.type in _BLOCK_ENDS or token.type in ("fence", "code_block"):
            section.pieces.append(BREAK)
    document.title = document.title or PurePosixPath(path).stem
    return document


def _inline(children: list[Token]) -> list[Piece]:
    pieces: list[Piece] = []
    for child in children:
        if child.type in ("text", "code_inline"):
            pieces.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            pieces.append(" ")
        elif child.type in ("math_inline", "math_inline_double"):
            pieces.extend(latex_formulas(child.content, display=child.type == "math_inline_double"))
        elif child.type == "image":
            pieces.extend(_inline(child.children or []))
    return pieces


def _plain(children: list[Token]) -> str:
    text, _ = body([piece for piece in _inline(children) if not isinstance(piece, type(BREAK))])
    return " ".join(text.split())
