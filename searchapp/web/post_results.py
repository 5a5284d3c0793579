"""The one presenter of question-search results, for the JSON API and the page."""
from __future__ import annotations

from searchapp.models import Formula
from searchapp.search.results import PostResults

SNIPPET_CHARS = 300


def post_results_dict(results: PostResults) -> dict:
    latex = dict(Formula.objects.filter(pk__in=[hit.formula_id for hit in results.hits if hit.formula_id])
                 .values_list("id", "latex"))
    return {
        "question": results.question.text, "mode": results.mode, "candidates": results.candidates,
        "elapsed_ms": round(results.elapsed_ms, 1), "unread_formulas": results.question.unread,
        "results": [{
            "rank": hit.rank, "score": round(hit.score, 4), "parts": {k: round(v, 4) for k, v in hit.parts.items()},
            "post": {"id": hit.post.pk, "source_id": hit.post.source_id, "corpus": hit.post.corpus.name,
                     "title": hit.post.title, "url": hit.post.url, "snippet": snippet(hit.post.body),
                     "question": None if hit.post.parent is None else {
                         "id": hit.post.parent.pk, "title": hit.post.parent.title, "url": hit.post.parent.url}},
            "matched_formula": None if hit.formula_id is None else {"id": hit.formula_id, "latex": latex.get(hit.formula_id, "")},
        } for hit in results.hits],
    }


def snippet(body: str, limit: int = SNIPPET_CHARS) -> str:
    """The start of a post's text, cut at a space outside any `$…$` so no formula is cut in half."""
    if len(body) <= limit:
        return body
    dollars, cut = 0, 0
    for i, char in enumerate(body[:limit]):
        if char == "$" and (i == 0 or body[i - 1] != "\\"):
            dollars += 1
        elif char.isspace() and dollars % 2 == 0:
            cut = i
    return body[:cut or limit].rstrip() + " …"
