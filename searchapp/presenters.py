"""Search results as plain dicts: the one shape shared by the JSON API and `manage.py search --json`."""
from __future__ import annotations

from dataclasses import asdict

from searchapp.models import Occurrence
from searchapp.search import SearchResults

OCCURRENCES_PER_HIT = 3


def results_dict(results: SearchResults) -> dict:
    occurrences = _occurrences([hit.formula_id for hit in results.hits])
    return {
        "query": results.query,
        "fusion": results.fusion,
        "candidates": results.candidates,
        "elapsed_ms": round(results.elapsed_ms, 1),
        "results": [
            {
                "id": hit.formula_id,
                "rank": hit.rank,
                "latex": hit.latex,
                "corpus": hit.corpus,
                "score": round(hit.score, 5),
                "parts": {name: round(value, 5) for name, value in hit.parts.items()},
                "alignment": {name: asdict(a) for name, a in hit.alignment.items()},
                "posts": occurrences.get(hit.formula_id, []),
            }
            for hit in results.hits
        ],
    }


def _occurrences(formula_ids: list[int]) -> dict[int, list[dict]]:
    found: dict[int, list[dict]] = {}
    rows = Occurrence.objects.filter(formula_id__in=formula_ids).select_related("post").order_by("post_id", "position")
    for occurrence in rows:
        posts = found.setdefault(occurrence.formula_id, [])
        if len(posts) < OCCURRENCES_PER_HIT:
            posts.append({"post_id": occurrence.post_id, "source_id": occurrence.post.source_id,
                          "title": occurrence.post.title, "url": occurrence.post.url,
                          "latex": occurrence.latex})
    return found
