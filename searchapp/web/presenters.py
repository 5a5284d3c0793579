"""Search results for people and programs: one presenter feeds the JSON API, `manage.py search` and the pages.

`present` reads the hits' posts once and explains each hit from its alignment; `results_dict` is the
JSON shape, and the page template reads the same items. Question-search results have one shape for the JSON API
and the page alike (`post_results_dict`). Highlight colours link a query node and the
result node it was aligned to (strongest pairs first), per result.
"""
from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from functools import cached_property

from django.db.models import Count, Prefetch, Q, prefetch_related_objects
from django.utils.html import strip_tags

from mathparse import ParseError, parse, tree_from_slt_string
from mathparse.tree import Tree, node_value
from ml.ranking.features import FEATURE_HELP
from searchapp.models import Formula, Occurrence
from searchapp.search.feedback_boost import Evidence
from searchapp.search.long_queries import long_formula
from searchapp.search.results import PostResults, SearchHit, SearchResults
from searchapp.web import snippets as cuts
from searchapp.web.trees_svg import tree_svg

SNIPPETS_PER_HIT = 3
MAX_OCCURRENCES = 200
"""Posts listed on a formula's page."""
SNIPPET_CHARS = 90
POST_SNIPPET_CHARS = 300
"""A question-search result's snippet of its post."""
HIGHLIGHT_COLOURS = 6
MIN_HIGHLIGHT_SIMILARITY = 0.5
"""Below this cosine an alignment is a guess, and colouring it would claim a match that is not there."""


@dataclass(frozen=True)
class Snippet:
    post_id: int
    source_id: str
    title: str
    url: str
    before: str
    latex: str
    after: str
    in_title: bool
    """The formula is in the post's title (shown by the title itself), not its body."""
    anchor: str
    """The formula's id on its post's page, where a link to it lands ("" for one in the title)."""
    number: str = ""
    """The number its document prints for it (`2.14`), or empty."""


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
    occurrences: int
    """How often the formula occurs: the page links to all of them when `snippets` shows only the first."""
    representation: str = ""
    chips: list[Chip] = field(default_factory=list)
    query_colours: dict[int, int] = field(default_factory=dict)
    result_colours: dict[int, int] = field(default_factory=dict)
    chosen: str = ""
    """The kind of the viewer's judgment of it for this query, "" if none: its button renders pressed."""

    @property
    def highlight(self) -> dict:
        """Node → colour maps for the page script (JSON keys must be strings)."""
        return {"query": {str(k): v for k, v in self.query_colours.items()},
                "result": {str(k): v for k, v in self.result_colours.items()}}

    @property
    def signals(self) -> list[dict]:
        """The learned ranker's features that raised this hit most, in words (empty under a dense fusion)."""
        return [{"feature": name, "meaning": FEATURE_HELP[name], "contribution": value}
                for name, value in self.hit.signals]

    @cached_property
    def tree(self) -> str:
        """The result's SLT as SVG with its aligned nodes coloured (drawn only when a page shows it)."""
        if self.representation != "slg":
            return ""
        try:
            tree = tree_from_slt_string(self.hit.formula.slt_string)
        except ParseError:
            return ""
        return tree_svg(tree, self.result_colours, title="result tree, aligned nodes coloured")


def present(results: SearchResults) -> list[ResultItem]:
    snippets = snippets_for([hit.formula for hit in results.hits], SNIPPETS_PER_HIT)
    counts = dict(Occurrence.objects.filter(formula_id__in=[hit.formula_id for hit in results.hits])
                  .values("formula_id").annotate(count=Count("id")).values_list("formula_id", "count"))
    return [_explained(ResultItem(hit, snippets.get(hit.formula_id, []), counts.get(hit.formula_id, 0)))
            for hit in results.hits]


def results_dict(results: SearchResults, items: list[ResultItem]) -> dict:
    return {
        "query": results.query.text,
        "notation": results.query.notation,
        "macros": list(results.query.macros),
        "readings": 1 + len(results.query.readings),
        "latex_from_unicode": results.query.latex_from_unicode or None,
        "long_formula": long_formula(results.query),
        "fusion": results.fusion,
        "candidates": results.candidates,
        "elapsed_ms": round(results.elapsed_ms, 1),
        "results": [
            {
                "id": item.hit.formula_id,
                "rank": item.hit.rank,
                "latex": item.hit.formula.latex,
                "notation": item.hit.formula.notation,
                "corpus": item.hit.formula.corpus.name,
                "also_in": corpora_of(item.hit.also),
                "bindings": None if item.hit.bindings is None else dict(item.hit.bindings),
                "score": round(item.hit.score, 5),
                "parts": {name: round(value, 5) for name, value in item.hit.parts.items()},
                "alignment": {name: asdict(a) for name, a in item.hit.alignment.items()},
                "signals": item.signals,
                "posts": [asdict(snippet) for snippet in item.snippets],
                "occurrences": item.occurrences,
                "feedback": feedback_dict(item.hit.feedback),
                "explored": item.hit.explored,
            }
            for item in items
        ],
    }


def feedback_dict(evidence: Evidence | None) -> dict | None:
    """What people said of a result for this query and how many places it moved it, as the JSON gives it; None if
    nothing."""
    if evidence is None:
        return None
    return {"relevant": evidence.relevant, "not_relevant": evidence.not_relevant, "clicked": evidence.clicked,
            "passed": evidence.passed, "evidence": round(evidence.weight, 4), "moved": evidence.moved,
            "headline": evidence.headline, "explanation": evidence.explanation}


def question_of(post) -> dict | None:
    """The question a post answers, as the JSON names it: {"id", "title", "url"}; None for a question."""
    parent = post.parent
    return None if parent is None else {"id": parent.pk, "title": parent.title, "url": parent.url}


def corpora_of(rows: Iterable) -> list[dict]:
    """The same formula or post in other corpora, as the JSON names it: {"id", "corpus"}."""
    return [{"id": row.pk, "corpus": row.corpus.name} for row in rows]


def post_results_dict(results: PostResults) -> dict:
    matched = [(hit.post.pk, hit.formula_id) for hit in results.hits if hit.formula_id]
    latex = dict(Formula.objects.filter(pk__in=[formula_id for _, formula_id in matched]).values_list("id", "latex"))
    anchors = _anchors(matched)
    return {
        "question": results.question.text, "mode": results.mode, "candidates": results.candidates,
        "elapsed_ms": round(results.elapsed_ms, 1), "unread_formulas": results.question.unread,
        "macros": results.question.macros,
        "results": [{
            "rank": hit.rank, "score": round(hit.score, 4), "parts": {k: round(v, 4) for k, v in hit.parts.items()},
            "post": {"id": hit.post.pk, "source_id": hit.post.source_id, "corpus": hit.post.corpus.name,
                     "title": hit.post.title, "url": hit.post.url, "snippet": cuts.snippet(hit.post.body, POST_SNIPPET_CHARS),
                     "question": question_of(hit.post)},
            "also_in": corpora_of(hit.also),
            "matched_formula": None if hit.formula_id is None else {
                "id": hit.formula_id, "latex": latex.get(hit.formula_id, ""),
                "anchor": anchors.get((hit.post.pk, hit.formula_id), "")},
            "feedback": feedback_dict(hit.feedback),
        } for hit in results.hits],
    }


def _anchors(pairs: list[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """Where each (post, formula) first stands in the post's text, as its page's anchor (none for a formula that is
    only in the title, or only in the answer's question)."""
    found: dict[tuple[int, int], str] = {}
    if not pairs:
        return found
    wanted = Q()
    for post_id, formula_id in pairs:
        wanted |= Q(post_id=post_id, formula_id=formula_id)
    for occurrence in Occurrence.objects.filter(wanted, end__gt=0).order_by("post_id", "position").only(
            "post_id", "formula_id", "position", "anchor"):
        found.setdefault((occurrence.post_id, occurrence.formula_id), occurrence.page_anchor)
    return found


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


def _explained(item: ResultItem) -> ResultItem:
    """Fill chips and colours from the SLG alignment (the OPG one if SLG is missing)."""
    alignment = item.hit.alignment
    item.representation = "slg" if "slg" in alignment else "opg" if "opg" in alignment else ""
    if not item.representation:
        return item
    chosen = alignment[item.representation]
    item.query_colours, item.result_colours = colour_pairs(chosen.pairs)
    best: dict[int, float] = {}
    for _, j, similarity in chosen.pairs:
        if j in item.result_colours:
            best[j] = max(best.get(j, -1.0), similarity)
    item.chips = [Chip(colour, [node_value(chosen.query_labels[i]) for i, c in sorted(item.query_colours.items())
                                if c == colour], node_value(chosen.result_labels[j]), round(best[j], 2))
                  for j, colour in sorted(item.result_colours.items(), key=lambda pair: pair[1])]
    return item


def snippets_for(formulas: list, per_formula: int) -> dict[int, list[Snippet]]:
    """The first posts each formula occurs in, with the formula cut out of the post body in context: one
    query for all formulas, sliced per formula (a formula in 10,000 posts reads `per_formula` rows)."""
    first = Occurrence.objects.select_related("post__parent").order_by("post_id", "position")[:per_formula]
    prefetch_related_objects(formulas, Prefetch("occurrences", queryset=first, to_attr="first_occurrences"))
    return {formula.pk: [snippet(occurrence) for occurrence in formula.first_occurrences] for formula in formulas}


def snippet(occurrence: Occurrence) -> Snippet:
    """The words around an occurrence, cut between words and never inside another formula (the page renders
    their `$…$`, and half a formula would pair its stray `$` with the next one); "…" where the post goes on."""
    body, start, end = occurrence.post.body, occurrence.start, occurrence.end
    before = after = ""
    if 0 <= start < end <= len(body):
        window = SNIPPET_CHARS * 4  # room for the markup that strip_tags will remove
        first, last = _outside_formulas(body, max(0, start - window), min(len(body), end + window))
        head, tail = body[first:start], body[end:last]
        if "<" in body:  # HTML: drop the tags cut in half by the window's edges
            head = _HEAD_PARTIAL_TAG.sub("", head) if first > 0 else head
            tail = _TAIL_PARTIAL_TAG.sub("", tail)
        before = cuts.ending(_plain(head), SNIPPET_CHARS, more=first > 0)
        after = cuts.snippet(_plain(tail), SNIPPET_CHARS, more=last < len(body))
    post = occurrence.post
    in_title = occurrence.end == 0
    return Snippet(post.pk, post.source_id, post.display_title, post.url, before, occurrence.latex, after,
                   in_title=in_title, anchor="" if in_title else occurrence.page_anchor, number=occurrence.number)


def _outside_formulas(body: str, first: int, last: int) -> tuple[int, int]:
    """The window [first, last) of `body` with each edge moved out of any formula it falls inside: as indexing read
    them and as the page draws them (`cuts.tex_spans`: environments too), which can overlap."""
    spans = cuts.formulas_near(body, first, last)
    for start, end in spans:  # by start: a span that the moved edge now falls inside comes later
        if start < first < end:
            first = end
    for start, end in reversed(spans):
        if start < last < end:
            last = start
    return first, last


_HEAD_PARTIAL_TAG = re.compile(r"^[^<]*>")
_TAIL_PARTIAL_TAG = re.compile(r"<[^>]*$")


def _plain(html_text: str) -> str:
    return " ".join(html.unescape(strip_tags(html_text)).split())


@dataclass
class PostFormula:
    formula_id: int
    latex: str
    """As the post first writes it."""
    count: int
    in_title: bool


def post_formulas(post) -> list[PostFormula]:
    """The post's distinct formulas in the order they first appear, each with how often it occurs: a post that
    writes $p$ twenty times lists it once (its prefetched `occurrences` are read)."""
    distinct: dict[int, PostFormula] = {}
    for occurrence in post.occurrences.all():
        listed = distinct.setdefault(occurrence.formula_id, PostFormula(occurrence.formula_id, occurrence.latex, 0, False))
        listed.count += 1
        listed.in_title = listed.in_title or occurrence.end == 0
    return list(distinct.values())


@dataclass(frozen=True)
class FormulaDetail:
    """What a formula's page and its API answer show besides the row itself."""

    trees: dict[str, Tree | None]
    """{"slt": ..., "opt": ...}; either is None when it cannot be built."""
    snippets: list[Snippet]
    occurrence_count: int
    elsewhere: list[Formula]
    """The same formula in other corpora, with their corpus."""


def formula_detail(formula: Formula, max_snippets: int = MAX_OCCURRENCES) -> FormulaDetail:
    try:
        graphs = parse(formula.slt_string, "slt")
        trees = {"slt": graphs.slt, "opt": graphs.opt}
    except ParseError:  # a row stored by an older parser; the page still shows the rest
        trees = {"slt": None, "opt": None}
    return FormulaDetail(trees, snippets_for([formula], max_snippets)[formula.pk], formula.occurrences.count(),
                         list(Formula.objects.copies_of(formula)))
