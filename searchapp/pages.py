"""What the HTML pages show: search results with snippets and alignment highlights, a formula's trees.

Views stay thin; this module turns search hits into template-ready objects. Highlight colours
link a query node and the result node it was aligned to (strongest pairs first), per result.
"""
from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass, field

from django.utils.html import strip_tags

from ml.formula import ParseError, parse_latex, parse_slt_string
from ml.formula.tree import node_value
from searchapp.models import Formula, Occurrence
from searchapp.search import SearchHit, SearchResults, search_formulas
from searchapp.trees_svg import tree_svg

PAGE_SIZE = 20
MAX_OCCURRENCES = 200
SNIPPET_CHARS = 90
HIGHLIGHT_COLOURS = 6
MIN_HIGHLIGHT_SIMILARITY = 0.5
"""Below this cosine an alignment is a guess, and colouring it would claim a match that is not there."""

EXAMPLES = [
    r"x^2 + y^2 = z^2",
    r"\sum_{k=1}^{n} k^2",
    r"\int_0^\infty e^{-x^2}\,dx",
    r"\frac{a}{b} + \frac{c}{d}",
    r"\lim_{n \to \infty} \left(1 + \frac{1}{n}\right)^n",
    r"e^{i\pi} + 1 = 0",
]
PALETTE = [  # (button text, inserted LaTeX)
    ("a/b", r"\frac{}{}"), ("x²", "^{}"), ("xᵢ", "_{}"), ("√", r"\sqrt{}"), ("Σ", r"\sum_{i=1}^{n}"),
    ("∫", r"\int_{a}^{b}"), ("lim", r"\lim_{x \to 0}"), ("∞", r"\infty"), ("α", r"\alpha"), ("π", r"\pi"),
    ("≤", r"\le"), ("≠", r"\neq"), ("(n k)", r"\binom{n}{k}"), ("|x|", r"\left| \right|"),
]


@dataclass(frozen=True)
class Snippet:
    post_id: int
    title: str
    url: str
    before: str
    latex: str
    after: str


@dataclass(frozen=True)
class Chip:
    colour: int
    query_values: list[str]
    result_value: str
    similarity: float


@dataclass
class ResultItem:
    hit: SearchHit
    snippets: list[Snippet]
    representation: str = ""
    chips: list[Chip] = field(default_factory=list)
    query_colours: dict[int, int] = field(default_factory=dict)
    result_colours: dict[int, int] = field(default_factory=dict)
    tree: str = ""

    @property
    def highlight(self) -> dict:
        """Node → colour maps for the page script (JSON keys must be strings)."""
        return {"query": {str(k): v for k, v in self.query_colours.items()},
                "result": {str(k): v for k, v in self.result_colours.items()}}


def colour_pairs(pairs: list[tuple[int, int, float]]) -> tuple[dict[int, int], dict[int, int]]:
    """(query node → colour, result node → colour): one colour per result node, strongest pairs first."""
    result_colours: dict[int, int] = {}
    for _, j, similarity in sorted(pairs, key=lambda pair: -pair[2]):
        if similarity < MIN_HIGHLIGHT_SIMILARITY or len(result_colours) == HIGHLIGHT_COLOURS:
            break
        result_colours.setdefault(j, len(result_colours))
    query_colours = {i: result_colours[j] for i, j, s in pairs
                     if j in result_colours and s >= MIN_HIGHLIGHT_SIMILARITY}
    return query_colours, result_colours


def result_items(results: SearchResults) -> list[ResultItem]:
    snippets = snippets_for([hit.formula_id for hit in results.hits])
    slt_strings = dict(Formula.objects.filter(pk__in=[h.formula_id for h in results.hits])
                       .values_list("id", "slt_string"))
    items = []
    for hit in results.hits:
        item = ResultItem(hit, snippets.get(hit.formula_id, []))
        _explain(item, slt_strings.get(hit.formula_id, ""))
        items.append(item)
    return items


def _explain(item: ResultItem, slt_string: str) -> None:
    """Fill chips, colours and the result's tree from the SLG alignment (the OPG one if SLG is missing)."""
    representation = "slg" if "slg" in item.hit.alignment else "opg" if "opg" in item.hit.alignment else ""
    if not representation:
        return
    alignment = item.hit.alignment[representation]
    item.representation = representation
    item.query_colours, item.result_colours = colour_pairs(alignment.pairs)
    best: dict[int, float] = {}
    for i, j, similarity in alignment.pairs:
        if j in item.result_colours:
            best[j] = max(best.get(j, -1.0), similarity)
    item.chips = [Chip(colour, [node_value(alignment.query_labels[i]) for i, c in sorted(item.query_colours.items())
                                if c == colour], node_value(alignment.result_labels[j]), round(best[j], 2))
                  for j, colour in sorted(item.result_colours.items(), key=lambda pair: pair[1])]
    tree = formula_trees(slt_string, "")[representation]
    if tree is not None:
        item.tree = tree_svg(tree, item.result_colours, title="result tree, aligned nodes coloured")


def formula_trees(slt_string: str, latex: str) -> dict:
    """{"slg": SLT, "opg": OPT} of a stored formula; either may be None (no OPT, or nothing parses)."""
    try:
        graphs = parse_slt_string(slt_string) if slt_string else parse_latex(latex)
    except ParseError:
        return {"slg": None, "opg": None}
    return {"slg": graphs.slt, "opg": graphs.opt}


def query_tree_svg(latex: str) -> str:
    try:
        return tree_svg(parse_latex(latex).slt, title="query tree")
    except ParseError:
        return ""


def snippets_for(formula_ids: list[int], per_formula: int = 3) -> dict[int, list[Snippet]]:
    """The first posts each formula occurs in, with the formula cut out of the post body in context."""
    found: dict[int, list[Snippet]] = {}
    rows = Occurrence.objects.filter(formula_id__in=formula_ids).select_related("post").order_by("post_id", "position")
    for occurrence in rows:
        snippets = found.setdefault(occurrence.formula_id, [])
        if len(snippets) < per_formula:
            snippets.append(snippet(occurrence))
    return found


def snippet(occurrence: Occurrence) -> Snippet:
    body, start, end = occurrence.post.body, occurrence.start, occurrence.end
    before = after = ""
    if 0 <= start < end <= len(body):
        window = SNIPPET_CHARS * 4  # room for the markup that strip_tags will remove
        head, tail = body[max(0, start - window):start], body[end:end + window]
        if "<" in body:  # HTML: drop the tags cut in half by the window's edges
            head = _HEAD_PARTIAL_TAG.sub("", head) if start > window else head
            tail = _TAIL_PARTIAL_TAG.sub("", tail)
        before, after = _plain(head)[-SNIPPET_CHARS:], _plain(tail)[:SNIPPET_CHARS]
    post = occurrence.post
    return Snippet(post.pk, post.title or post.source_id, post.url, before, occurrence.latex, after)


_HEAD_PARTIAL_TAG = re.compile(r"^[^<]*>")
_TAIL_PARTIAL_TAG = re.compile(r"<[^>]*$")


def _plain(html_text: str) -> str:
    return " ".join(html.unescape(strip_tags(html_text)).split())


def page_numbers(candidates: int, page: int, max_pages: int) -> dict:
    pages = min(max_pages, max(1, math.ceil(candidates / PAGE_SIZE)))
    return {"number": page, "pages": pages, "first": (page - 1) * PAGE_SIZE + 1, "previous": page - 1 if page > 1 else None,
            "next": page + 1 if page < pages else None}


def error_context(message: str, pos: int | None) -> dict:
    """A search error for the page; `caret` points under the offending character of the query."""
    return {"message": message, "pos": pos, "caret": None if pos is None else " " * pos + "^"}


def nearest_formulas(formula: Formula, k: int = 10) -> list[SearchHit]:
    """The formula's nearest neighbours by the search itself (its own row excluded)."""
    try:
        results = search_formulas(formula.latex, k=k + 1)
    except ParseError:  # stored from an SLT string, or LaTeX the current parser rejects
        return []
    return [hit for hit in results.hits if hit.formula_id != formula.pk][:k]
