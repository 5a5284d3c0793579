"""Web pages as sections: `<h1>`/`<h2>` start them (the first `<h1>` before any other heading is the page's
title when it has no `<title>`), and formulas are
- `<math>` elements: their `<annotation encoding="application/x-tex">` as LaTeX when present (how KaTeX and
  MathJax's assistive MathML carry the source), else the MathML itself (notation "mathml");
- MathJax 2's `<script type="math/tex">` (`; mode=display` for display);
- MathJax delimiters in the text: `\\(…\\)`, `\\[…\\]`, `$$…$$` and `$…$` (found as the site's extractor finds them).
Scripts, styles and the drawn copies of a formula (KaTeX's `katex-html`, MathJax's preview, anything
`aria-hidden`) are not text; code (`<pre>`, `<code>`) is text, never math.
"""
from __future__ import annotations

import html
from html.parser import HTMLParser
from pathlib import PurePosixPath

from corpora.documents.archive import decoded
from corpora.documents.latex_math import latex_formulas
from corpora.documents.posts import BREAK, Document, Formula, Piece, Section, body, shown_formula
from mathparse import ParseError, parse, slt_to_latex
from mathparse.extraction import extract_formulas

_SKIPPED = frozenset({"script", "style", "noscript", "template", "svg", "head", "button", "nav"})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                   "wbr"})
_DRAWN = frozenset({"katex-html", "MathJax_Preview", "MathJax", "MathJax_Display", "MathJax_SVG",
                    "MathJax_CHTML", "MathJax_SVG_Display"})
_BLOCKS = frozenset({"p", "div", "li", "tr", "td", "th", "br", "hr", "pre", "blockquote", "section", "article",
                     "table", "ul", "ol", "dl", "dt", "dd", "figure", "figcaption", "h3", "h4", "h5", "h6",
                     "header", "footer", "main", "aside", "details", "summary"})
_CODE = frozenset({"pre", "code", "kbd", "samp", "tt"})
_TEX = frozenset({"application/x-tex", "tex", "latex", "text/x-tex"})


def html_document(data: bytes, path: str) -> Document:
    page = _Page(path)
    page.feed(decoded(data))
    page.close()
    page.flush()
    document = page.document
    document.title = page.title_text.strip() or page.first_heading or PurePosixPath(path).stem
    return document


def mathml_as_latex(mathml: str) -> str:
    """What a post shows for a formula given only as MathML: the LaTeX of its tree (as mse_threads does)."""
    try:
        return slt_to_latex(parse(mathml, "mathml").slt)
    except ParseError:
        return r"\text{(unreadable formula)}"


class _Page(HTMLParser):
    def __init__(self, path: str) -> None:
        super().__init__(convert_charrefs=True)
        self.path = path
        self.document = Document(path, "")
        self.section = Section("", path)
        self.document.sections.append(self.section)
        self.open: list[tuple[str, bool]] = []  # (tag, skipped) of the elements open
        self.prose: list[str] = []
        self.code = 0
        self.title_text, self.in_title = "", False
        self.heading: tuple[int, list[Piece]] | None = None
        self.first_heading = ""
        self.headings = 0
        self.math: list[str] | None = None
        self.math_display = False
        self.tex: list[str] | None = None  # the TeX being read (an annotation's, a math/tex script's)
        self.annotation = ""
        self.tex_script: bool | None = None  # display, inside <script type="math/tex">
        self.display_depth = 0

    @property
    def pieces(self) -> list[Piece]:
        return self.heading[1] if self.heading is not None else self.section.pieces

    def skipped(self) -> bool:
        return any(skip for _, skip in self.open)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        if self.math is not None:
            self.math.append(self.get_starttag_text() or f"<{tag}>")
            if tag == "annotation" and attributes.get("encoding", "").lower() in _TEX:
                self.tex = []
            if tag not in _VOID:
                self.open.append((tag, False))
            return
        if tag == "title":
            self.in_title = True
        classes = set(attributes.get("class", "").split())
        kind = attributes.get("type", "").lower()
        if tag == "script" and kind.startswith("math/tex"):
            self.flush()
            self.tex_script, self.tex = "mode=display" in kind, []
            self.open.append((tag, False))
            return
        if tag == "math":
            self.flush()
            self.math, self.tex = [self.get_starttag_text() or "<math>"], None
            self.math_display = attributes.get("display") == "block" or self.display_depth > 0
            self.open.append((tag, False))
            return
        skip = tag in _SKIPPED or bool(classes & _DRAWN) or attributes.get("aria-hidden") == "true"
        if tag in _VOID:
            if tag in _BLOCKS:
                self.block()
            return
        self.open.append((tag, skip))
        if "katex-display" in classes:
            self.display_depth += 1
        if tag in _BLOCKS:
            self.block()
        if tag in _CODE:
            self.flush()
            self.code += 1
        if tag in ("h1", "h2") and not self.skipped():
            self.flush()
            self.heading = (int(tag[1]), [])

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.math is not None:
            self.math.append(self.get_starttag_text() or f"<{tag}/>")
        elif tag in _BLOCKS:
            self.block()

    def handle_endtag(self, tag: str) -> None:
        if not any(name == tag for name, _ in self.open):
            return  # a stray end tag
        while self.open:
            name, _ = self.open.pop()
            self.end_element(name)
            if name == tag:
                break

    def end_element(self, tag: str) -> None:
        if self.math is not None:
            self.math.append(f"</{tag}>")
            if tag == "annotation" and self.tex is not None:
                self.annotation, self.tex = "".join(self.tex), None
            if tag == "math":
                self.end_math()
            return
        if tag == "script" and self.tex_script is not None:
            self.pieces.extend(latex_formulas("".join(self.tex or []), self.tex_script))
            self.tex_script, self.tex = None, None
        elif tag == "title":
            self.in_title = False
        elif tag in _CODE:
            self.code = max(0, self.code - 1)
        elif tag in ("h1", "h2") and self.heading is not None:
            self.end_heading()
        if tag in _BLOCKS:
            self.block()

    def end_math(self) -> None:
        mathml, tex = "".join(self.math or []), self.annotation
        self.math, self.tex, self.annotation = None, None, ""
        if tex.strip():
            self.pieces.extend(latex_formulas(tex, self.math_display))
        elif (text := shown_formula(mathml)) is not None:
            self.pieces.append(Formula(text, "mathml", self.math_display, shown=mathml_as_latex(text)))

    def end_heading(self) -> None:
        self.flush()
        assert self.heading is not None  # noqa: S101 - close() checked it
        level, pieces = self.heading
        self.heading = None
        text, _ = body([piece for piece in pieces if not isinstance(piece, type(BREAK))])
        heading = " ".join(text.split())
        self.headings += 1
        if level == 1 and self.headings == 1:  # the page's own heading, not a section
            self.first_heading = heading
            return
        self.section = self.document.section(heading, level, self.path)

    def handle_data(self, data: str) -> None:
        if self.tex is not None:
            self.tex.append(data)
        if self.math is not None:
            self.math.append(html.escape(data, quote=False))
        elif self.tex_script is not None:
            return
        elif self.in_title:
            self.title_text += data
        elif not self.skipped():
            if self.code:
                self.pieces.append(data)
            else:
                self.prose.append(data)

    def block(self) -> None:
        self.flush()
        if self.heading is None:
            self.pieces.append(BREAK)

    def flush(self) -> None:
        """The prose gathered since the last formula or block, its delimited formulas found."""
        text = "".join(self.prose)
        self.prose.clear()
        last = 0
        for found in extract_formulas(text):
            self.pieces.append(text[last:found.start])
            self.pieces.extend(latex_formulas(found.latex, found.display))
            last = found.end
        if text[last:]:
            self.pieces.append(text[last:])
