"""The one presenter of question-search results, for the JSON API and the page."""
from __future__ import annotations

from searchapp.models import Formula
from searchapp.search.results import PostResults
from searchapp.web.presenters import corpora_of, question_of
from searchapp.web.snippets import snippet

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
                     "title": hit.post.title, "url": hit.post.url, "snippet": snippet(hit.post.body, SNIPPET_CHARS),
                     "question": question_of(hit.post)},
            "also_in": corpora_of(hit.also),
            "matched_formula": None if hit.formula_id is None else {"id": hit.formula_id, "latex": latex.get(hit.formula_id, "")},
        } for hit in results.hits],
    }

