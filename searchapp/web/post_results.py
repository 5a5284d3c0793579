"""The one presenter of question-search results, for the JSON API and the page."""
from __future__ import annotations

from django.db.models import Q

from searchapp.models import Formula, Occurrence
from searchapp.search.results import PostResults
from searchapp.web.presenters import corpora_of, feedback_dict, question_of
from searchapp.web.snippets import snippet

SNIPPET_CHARS = 300


def post_results_dict(results: PostResults) -> dict:
    matched = [hit for hit in results.hits if hit.formula_id]
    latex = dict(Formula.objects.filter(pk__in=[hit.formula_id for hit in matched]).values_list("id", "latex"))
    anchors = _anchors([(hit.post.pk, hit.formula_id) for hit in matched])
    return {
        "question": results.question.text, "mode": results.mode, "candidates": results.candidates,
        "elapsed_ms": round(results.elapsed_ms, 1), "unread_formulas": results.question.unread,
        "results": [{
            "rank": hit.rank, "score": round(hit.score, 4), "parts": {k: round(v, 4) for k, v in hit.parts.items()},
            "post": {"id": hit.post.pk, "source_id": hit.post.source_id, "corpus": hit.post.corpus.name,
                     "title": hit.post.title, "url": hit.post.url, "snippet": snippet(hit.post.body, SNIPPET_CHARS),
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

