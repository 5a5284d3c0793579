"""The search page and its Answers tab as their templates show them: the box as it was left, and the results a view
got from one call into the search (the good matches' cut, the pager, hints, the query tree, the formulas beside a
question's answers, the person's own judgments); with the examples, the symbol palette and the help's words."""
from __future__ import annotations

import math
import re
from itertools import takewhile
from urllib.parse import parse_qs, urlencode, urlsplit

from django.http import HttpRequest, QueryDict
from django.urls import reverse

from mathparse import slt_to_latex
from mathparse.normalise import PLAIN_NAMES, VARIABLE_NAME
from searchapp.feedback.people import Person
from searchapp.live.serving import Served
from searchapp.models import Corpus, Feedback
from searchapp.search.long_queries import long_formula
from searchapp.search.query import Query
from searchapp.search.question_search import FormulasBeside
from searchapp.search.questions import DEFAULT_MODE, MODES, Question
from searchapp.search.ranking import DEFAULT_ORDER, ORDERS
from searchapp.search.results import PostResults
from searchapp.web.presenters import post_results_dict, present
from searchapp.web.trees_svg import tree_svg

PAGE_SIZE = 20
MAX_PAGES = 50
EMPTY_QUESTION = "write your question first: its words, with any formulas between dollar signs"
"""The Answers tab's answer to an empty question (the API's "the query parameter q is required" is for programs)."""
NOTATION_NAMES = {"latex": "LaTeX", "mathml": "MathML", "slt": "a Tangent SLT string"}
NOTATION_CHOICES = [("auto", "detect"), ("latex", "LaTeX"), ("mathml", "MathML"), ("slt", "Tangent SLT")]
MODE_NAMES = {"ssemb": "words and formulas (SSEmb)", "marf": "words fused with formulas (MaRF)", "text": "words (MiniLM)",
              "bm25": "BM25", "formula": "formulas only"}
MODE_CHOICES = [(mode, MODE_NAMES[mode]) for mode in MODES]  # a KeyError here: name the new mode for the page
REPRESENTATIONS = {
    "slg": ("Symbol layout graph", "the formula as it is written: symbols on baselines, with superscripts, subscripts, "
            "fractions and roots hanging off them (the symbol layout tree, SLT, with an edge back for every edge)"),
    "opg": ("Operator graph", "the formula as what it computes: operators over their operands, so that "
            "sin x and sin(x) are the same (the operator tree, OPT, with an edge back for every edge)"),
}
"""What the pages call SLG and OPG: (name, what it is)."""
FUSION_HELP = {
    "learned": "a learned ranker (LambdaMART) corrects the f1 score with structure features, such as the symbol pairs "
               "and operator paths the two formulas share; each result names the features that raised it most. Without "
               "a trained ranker, f1 orders the results",
    "max": "the larger of the SLG and OPG scores",
    "avg": "the mean of the SLG and OPG scores",
    "f1": "the harmonic mean of the SLG and OPG scores (negative scores count as 0): high only when both are",
    "rrf": "reciprocal rank fusion: 1/(60 + rank by SLG) + 1/(60 + rank by OPG), so ranks count, not scores",
    "weighted": "a weighted mean, w·SLG + (1 − w)·OPG, with w = 0.5 here: the same order as avg",
}
"""What each order of formula search (`searchapp.search.ranking.ORDERS`) does, for the help page and titles."""
MODE_HELP = {
    "ssemb": "0.4 × how alike the formulas are + 0.6 × how alike the words are (SSEmb); the default",
    "marf": "the question's words fused with its formulas by cross-attention (MaRF), compared with each answer's; "
            "without a trained fusion, searches fall back to ssemb and say so",
    "text": "the words alone: cosine of MiniLM sentence vectors, an answer's words counted half with its question's",
    "bm25": "the words alone: Okapi BM25 over English word stems, as a classic search engine ranks",
    "formula": "the question's formulas alone, compared with each answer's and its question's formulas",
}
"""What each question-search mode (`searchapp.search.questions.MODES`) does."""
NOTATION_HELP = {
    "auto": "MathML when the query starts with <math, a Tangent SLT string when it reads like [V!x,…], else LaTeX",
    "latex": "LaTeX, as KaTeX and the parser read it; math pasted in Unicode (x², a₁, √2, ½, ℝ) is read as the LaTeX it "
             "stands for",
    "mathml": "MathML, <math …>, as pasted from a web page or written by LaTeXML",
    "slt": "a Tangent symbol layout tree string, as in the ARQMath files: [V!x,a[N!2]] is x squared",
}
"""What each notation option of the search box reads."""
EXAMPLES = [
    r"x^2 + y^2 = z^2",
    r"\sum_{k=1}^{n} k^2",
    r"\int_0^\infty e^{-x^2}\,dx",
    r"\frac{a}{b} + \frac{c}{d}",
    r"\lim_{n \to \infty} \left(1 + \frac{1}{n}\right)^n",
    r"e^{i\pi} + 1 = 0",
    r"\sum_{n=1}^{\infty} \frac{1}{\qvar{x}}",
]
PALETTE = [  # (button text, inserted LaTeX)
    ("a/b", r"\frac{}{}"), ("x²", "^{}"), ("xᵢ", "_{}"), ("√", r"\sqrt{}"), ("Σ", r"\sum_{i=1}^{n}"),
    ("∫", r"\int_{a}^{b}"), ("lim", r"\lim_{x \to 0}"), ("∞", r"\infty"), ("α", r"\alpha"), ("π", r"\pi"),
    ("≤", r"\le"), ("≠", r"\neq"), ("(n k)", r"\binom{n}{k}"), ("|x|", r"\left| \right|"),
    ("?x", r"\qvar{x}"),  # a query variable: any sub-expression
]


def search_context(form: QueryDict, request: HttpRequest, as_question: bool) -> dict:
    """The search page's box as it was left (query, notation, fusion, words, corpus), its tabs and options."""
    return {"query": form.get("q", "").strip(), "examples": EXAMPLES, "palette": PALETTE, "fusions": ORDERS,
            "notations": NOTATION_CHOICES, "notation": form.get("notation") or "auto",
            "fusion": form.get("fusion") or DEFAULT_ORDER, "context_words": form.get("context", ""),
            "corpus": form.get("corpus", ""), "corpora": Corpus.objects.searchable().values_list("name", flat=True),
            "as_question": as_question, "tab": "formulas" if form.get("as") == "formula" else "all",
            "tabs": tab_links(form), "back": back_param(request)}


def answers_tab_context(form: QueryDict, request: HttpRequest) -> dict:
    """The Answers tab's box as it was left (question, mode, corpus), its tabs and options."""
    return {"query": form.get("q", "").strip(), "modes": MODE_CHOICES, "mode": form.get("mode") or DEFAULT_MODE,
            "corpus": form.get("corpus", ""), "corpora": Corpus.objects.searchable().values_list("name", flat=True),
            "tab": "answers", "tabs": tab_links(form), "back": back_param(request)}


def page_window(page: int) -> dict[str, int]:
    """The `k` and `offset` a search is asked for to show results page `page`."""
    return {"k": PAGE_SIZE, "offset": (page - 1) * PAGE_SIZE}


def formula_results(served: Served, page: int, form: QueryDict) -> dict:
    """A formula search's page of results: where its good matches end (first page only), the pager, how the query
    was read (its notation, tree, LaTeX) and the hints about it."""
    results, query = served.results, served.results.query
    items = present(results)
    pattern = any(query.variables.values())
    cut = cut_of(items, pattern) if page == 1 else None
    return {"results": results, "impression": served.impression,
            "strong": items[:cut], "weaker": items[cut:] if cut else [],
            "cut": cut and {"above": items[cut - 1].hit.score, "below": items[cut].hit.score, "first": cut + 1,
                            "pattern": pattern},
            "fusion_help": FUSION_HELP[results.fusion], "representations": REPRESENTATIONS,
            "notation_name": NOTATION_NAMES[query.notation], "pager": page_numbers(results.candidates, page, form),
            "query_tree": query_tree_svg(query), "query_latex": query_latex(query), **query_hints(query, form)}


def answer_results(results: PostResults, params: dict, page: int, form: QueryDict) -> dict:
    """A question's page of answers: the mode that ranked them (and the one asked for, if it could not), the pager,
    the tag they were kept to, and the hint for LaTeX written outside dollar signs."""
    return {"results": post_results_dict(results), "mode_name": MODE_NAMES[results.mode],
            "mode_help": MODE_HELP[results.mode],
            "unavailable_mode": MODE_NAMES[params["mode"]] if results.mode != params["mode"] else "",
            "pager": page_numbers(results.candidates, page, form), "tag": params["tag"],
            "all_tags": without_param(form, "tag") if params["tag"] else "",
            "bare_latex": latex_outside_dollars(results.question, form)}


def one_box_answers(results: PostResults, beside: list[FormulasBeside], params: dict, page: int,
                    form: QueryDict) -> dict:
    """The one box's question: its `answer_results` as `answers`, and the formulas like each of its own, each group
    linked to the search of its formula alone."""
    context = answer_results(results, params, page, form)
    context["answers"] = context.pop("results")
    groups = [{"latex": group.latex, "hits": group.hits, "link": search_link(form, q=group.latex, **{"as": "formula"})}
              for group in beside]
    return {**context, "formula_hits": groups, "as_formula_link": search_link(form, **{"as": "formula"})}


def with_judgments(found: dict, person: Person, query: str) -> dict:
    """The results with each one's `chosen`: this person's judgment of it for this query, read in one query, so
    the pressed button survives a reload."""
    items = found.get("strong", []) + found.get("weaker", [])
    # a formula search has strong and weaker items; the Answers tab's answers are its results, the one box's answers
    answers = [] if "strong" in found else (found.get("answers") or found["results"])["results"]
    chosen = Feedback.objects.chosen(person.user_id, person.session_key, query,
                                     formulas=[item.hit.formula_id for item in items],
                                     posts=[hit["post"]["id"] for hit in answers])
    for item in items:
        item.chosen = chosen.get(("formula", item.hit.formula_id), "")
    for hit in answers:
        hit["chosen"] = chosen.get(("post", hit["post"]["id"]), "")
    return found


def page_numbers(candidates: int, page: int, params: QueryDict) -> dict:
    """The pager; its links repeat the request's `params` (every option of the search) with another page."""
    pages = min(MAX_PAGES, max(1, math.ceil(candidates / PAGE_SIZE)))
    return {"number": page, "pages": pages, "first": (page - 1) * PAGE_SIZE + 1,
            "previous": _page_link(params, page - 1) if page > 1 else None,
            "next": _page_link(params, page + 1) if page < pages else None}


def without_param(params: QueryDict, name: str) -> str:
    """The request's search without parameter `name` (and from its first page)."""
    linked = params.copy()
    linked.pop(name, None)
    linked.pop("page", None)
    return "?" + linked.urlencode()


def _page_link(params: QueryDict, page: int) -> str:
    linked = params.copy()
    linked["page"] = str(page)
    return "?" + linked.urlencode()


MIN_DROP = 0.05
DROP_RATIO = 3.0
"""Where the good matches end: the largest drop in score between neighbours on the first page, when it is at least
MIN_DROP and DROP_RATIO times the typical (median) drop between the others. On the starter corpus the exact match of
`e^{i\\pi}+1=0` scores 1.01 and the next best 0.59, and neighbours below are about 0.01 apart."""


def cut_of(items: list, pattern: bool) -> int | None:
    """How many of the first page's `items` are the good matches (None: no clear end on this page). For a query with
    variables, the formulas that hold the pattern (ranked first); else the place of a marked drop in score among the
    items above those shown to learn (`SearchHit.explored`), which stand higher than their scores."""
    if pattern:
        held = sum(item.hit.bindings is not None for item in items)
        return held if 0 < held < len(items) else None
    scores = [item.hit.score for item in takewhile(lambda item: not item.hit.explored, items)]
    drops = [above - below for above, below in zip(scores, scores[1:])]
    if len(drops) < 2:
        return None
    largest = max(range(len(drops)), key=drops.__getitem__)
    others = sorted(drops[:largest] + drops[largest + 1:])
    typical = others[len(others) // 2]
    return largest + 1 if drops[largest] >= max(MIN_DROP, DROP_RATIO * typical) else None


def back_param(request: HttpRequest) -> str:
    """`back=…` for the links of a results page to a formula or a post: the page's own address, every setting of
    the search in it (query, page, corpus, fusion, notation, words, mode), so "Back to results" returns to it."""
    return urlencode({"back": request.get_full_path()})


def results_link(back: str) -> str:
    """A `back` parameter's address if it is one of this site's results pages (the formula or the question search),
    else "": a link built from a parameter must not lead off the site."""
    parts = urlsplit(back)
    if parts.scheme or parts.netloc or back.startswith("//") or "\\" in back:
        return ""
    return back if parts.path in (reverse("home"), reverse("questions")) and parts.query else ""


def results_query(link: str) -> str:
    """The query of a results page's address ("" for none)."""
    return parse_qs(urlsplit(link).query).get("q", [""])[0]


def error_context(message: str, pos: int | None, query: str) -> dict:
    """A search error for the page: where it is, counted from 1 as people count (the API's `pos` is an offset
    from 0), and a `caret` under the offending character of the query."""
    if pos is None:
        return {"message": message, "where": None, "caret": None}
    where = "at the end" if pos >= len(query) else f"at character {pos + 1}"
    return {"message": message, "where": where, "caret": " " * pos + "^"}


def query_tree_svg(query: Query) -> str:
    """The query's tree; none for a long formula, whose results are aligned to its parts, not to it."""
    return tree_svg(query.graphs.slt, title="query tree") if query.graphs is not None and not query.parts else ""


def query_latex(query: Query) -> str:
    """LaTeX of a query given in another notation, so the page can show what was read."""
    return slt_to_latex(query.graphs.slt) if query.notation != "latex" and query.graphs is not None else ""


_TEXT_ARGUMENT = re.compile(r"\\(?:text\w*|math\w+|operatorname\*?|mbox|begin|end)\s*\{[^{}]*\}")
_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{3,}(?![A-Za-z])")


def query_hints(query: Query, params: QueryDict) -> dict:
    """`with_variables`: a LaTeX query with each box the palette left empty (`\\frac{1}{}`) made a query variable,
    and its link; an empty box reads as nothing, so `\\frac{}{}` searched for a lone fraction bar and found formulas
    without one. `long_formula`: what a formula too long to search whole had searched instead
    (`searchapp.search.long_queries`)."""
    latex = _boxes_as_variables(query.text) if query.notation == "latex" else ""
    return {"with_variables": {"latex": latex, "link": search_link(params, q=latex)} if latex else None,
            "long_formula": long_formula(query)}


def prose_words(latex: str) -> list[str]:
    """Words of three letters or more that are not a formula's own: named functions (`sin`, `log`) and the text of
    `\\text{…}`, `\\mathrm{…}` are not counted."""
    return [word for word in _WORD.findall(_TEXT_ARGUMENT.sub(" ", latex)) if word not in PLAIN_NAMES]


_LATEX_MARK = re.compile(r"\\[A-Za-z]+|[\^_]")


def latex_outside_dollars(question: Question, params: QueryDict) -> dict | None:
    """For a question with no `$…$` formula that still holds LaTeX (`\\int_0^1 x^2 dx`, `why is x^2 > 0`): its
    formulas were searched as words. A question that is all formula (fewer than two words, as the formula page's
    words hint counts) gets the link that searches it between dollar signs; a mix of words and LaTeX only the hint,
    since where its formulas start and end is the writer's to say."""
    if question.formulas or question.unread or not _LATEX_MARK.search(question.text):
        return None
    return {"link": None if len(prose_words(question.text)) >= 2 else search_link(params, q=f"${question.text}$")}


_EMPTY_GROUP = re.compile(r"\{\s*\}")
_SLOT_BEFORE = re.compile(r"(?:\\[dtc]?frac|\\binom|\\sqrt|[\^_}])\s*$")
"""An empty group is a box left empty where these want an argument: the palette's `\\frac{}{}`, `^{}`, `\\sqrt{}`
(a `{}` elsewhere, as in `{}^{14}C`, is LaTeX's way to attach to nothing)."""
_VARIABLE_NAME = re.compile(r"\\qvar\s*\{\s*([^{}]*?)\s*\}|\?(" + VARIABLE_NAME.pattern + ")")
"""A query variable of the query, `\\qvar{x}` or `?x`: its name is the first group's or the second's."""


def search_link(params: QueryDict, **changes: str | None) -> str:
    """The request's search with some parameters changed (None drops one), from its first page."""
    linked = params.copy()
    linked.pop("page", None)
    for name, value in changes.items():
        if value is None:
            linked.pop(name, None)
        else:
            linked[name] = value
    return "?" + linked.urlencode()


def tab_links(params: QueryDict) -> dict[str, str]:
    """The tabs filter the search in the box (all it finds, formulas only, answers only), each keeping its query and
    options."""
    home, questions = reverse("home"), reverse("questions")
    if not params.get("q"):
        return {"all": home, "formulas": home + "?as=formula", "answers": questions}
    return {"all": home + search_link(params, **{"as": None}), "formulas": home + search_link(params, **{"as": "formula"}),
            "answers": questions + search_link(params, **{"as": None})}


def _boxes_as_variables(text: str) -> str:
    """`text` with its empty boxes as query variables ("" if none), each named apart from the query's own variables
    (one name twice must match one thing)."""
    slots = [match for match in _EMPTY_GROUP.finditer(text)
             if _SLOT_BEFORE.search(text[max(0, match.start() - 8):match.start()])]
    if not slots:
        return ""
    used = {spelled or typed for spelled, typed in _VARIABLE_NAME.findall(text)}
    names = (name for name in (*"xyzwuv", *(f"x{i}" for i in range(1, len(slots) + 1))) if name not in used)
    parts, end = [], 0
    for match, name in zip(slots, names):
        parts += [text[end:match.start()], f"{{\\qvar{{{name}}}}}"]
        end = match.end()
    return "".join(parts) + text[end:]
