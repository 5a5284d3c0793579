"""The OpenAPI document's component schemas (`#/components/schemas`): what the API's answers and posted bodies hold,
field by field, with the building blocks the paths' parameters share (`searchapp.web.openapi` assembles the document).

Like the paths, every bound and choice is read from where the code enforces it."""
from __future__ import annotations

from mathparse import NOTATIONS
from ml.ranking.features import FEATURES
from searchapp.feedback.actions import (
    KINDS,
    MAX_FORMULA_ID,
    MAX_IMPRESSION_ID,
    MAX_LOOKS_SENT,
    MAX_POST_ID,
    MAX_RANK,
    UNJUDGE,
)
from searchapp.search.questions import DEFAULT_MODE, MODES
from searchapp.search.ranking import DEFAULT_ORDER, ORDERS
from searchapp.web.params import MAX_QUERY_CHARS


def ref(kind: str, name: str) -> dict:
    return {"$ref": f"#/components/{kind}/{name}"}


def _feedback_input(target: str, high: int, other: str, orders: tuple[str, ...], default: str,
                    extra: dict | None = None) -> dict:
    """The feedback body on one kind of result, without the other kind's id, so that a body naming both matches
    neither (`oneOf`), as the API refuses it. `fusion` is what ordered the results; `extra` are optional fields."""
    return {**object_of({
        "query": TEXT, target: {"type": "integer", "minimum": 1, "maximum": high},
        "kind": {"type": "string", "enum": list(KINDS),
                 "description": f"`{UNJUDGE}` takes the sender's judgment of this result for this query back"},
        "rank": {"type": "integer", "minimum": 1, "maximum": MAX_RANK},
        "fusion": {"type": "string", "enum": list(orders), "default": default}, **(extra or {})},
        optional=("fusion", *(extra or {}))), "not": {"required": [other]}}


IMPRESSION_ID = {"type": "integer", "minimum": 1, "maximum": MAX_IMPRESSION_ID,
                 "description": "a click's results page: the `impression_id` of the search that showed the formula "
                                "for this query, to this client (its session cookie) or to a client without one. "
                                "A click counts only with it: it is read against what that page showed (position "
                                "bias; the results down to the click count as seen) and credited to the ranker "
                                "that placed the formula. A judgment ignores it"}


def object_of(properties: dict, optional: tuple[str, ...] = ()) -> dict:
    """An object schema whose properties are all present unless named in `optional`."""
    return {"type": "object", "required": [name for name in properties if name not in optional],
            "properties": properties}


STRING, INTEGER, NUMBER = {"type": "string"}, {"type": "integer"}, {"type": "number"}


def _tuple(*items: dict) -> dict:
    """An array of exactly these items' kinds, at most as many. `maxItems`, not `items: false`, closes it: viewers
    of the schema fail on a boolean one (RapiDoc did), and read `items` as the element type they show."""
    kinds = {item["type"] for item in items}
    return {"type": "array", "prefixItems": list(items), "maxItems": len(items),
            "items": {"type": "number" if kinds <= {"integer", "number"} else sorted(kinds)}}


BLANK = "".join(f"\\u{ord(c):04x}" for c in map(chr, range(0x10000)) if c.isspace())
"""What str.strip() removes, spelled out: JSON Schema's `\\s` is ECMAScript's, which differs (U+001C–U+001F, U+0085,
U+FEFF). Every whitespace character is in the Basic Multilingual Plane."""
TEXT = {"type": "string", "minLength": 1, "maxLength": MAX_QUERY_CHARS, "pattern": f"^[^\\x00]*[^\\x00{BLANK}][^\\x00]*$",
        "description": "not blank, no NUL character"}
QUESTION = {**TEXT, "pattern": f"^[^\\x00]*[^\\x00${BLANK}][^\\x00]*$",
            "description": "not blank, not only dollar signs, no NUL character"}
NOTATION = {"type": "string", "enum": list(NOTATIONS),
            "description": "the notation the formula was read from; `latex` is rendered from its SLT when not LaTeX"}

MACROS = {"type": "array", "items": STRING,
          "description": "the macros of the corpus searched that the query wrote (names without the backslash, in "
                         "order of first use): it was read with the corpus's own definitions of them, the most common "
                         "among its documents first (`readings`); empty when none was expanded"}

TREE = {"type": ["object", "null"], "required": ["labels", "edges"], "properties": {
    "labels": {"type": "array", "items": STRING, "description": "node labels in pre-order"},
    "edges": {"type": "array", "description": "[parent index, child index, edge label]",
              "items": _tuple(INTEGER, INTEGER, STRING)},
}}

PEOPLE = {**object_of({
    "relevant": {"type": "integer", "description": "people whose judgment is relevant"},
    "not_relevant": {"type": "integer", "description": "people whose judgment is not relevant"},
    "clicked": {"type": "integer", "description": "people who clicked it without judging it"},
    "passed": {"type": "integer", "description": "people who saw it on their page and neither chose nor judged it"},
    "evidence": {"type": "number", "description": "+1 per relevant, −1 per not relevant, and the click rate of the "
                 "people who saw it without judging it (inverse examination propensity), once they are enough; "
                 "never below 0 until three different people passed it over or judged it not relevant"},
    "moved": {"type": "integer", "description": "places the evidence moved it up (negative: down) from where the "
              "engine's order puts it; `score` is unchanged by it"},
    "headline": {"type": "string", "description": "how far it moved, in words: \"Moved up 3 places\", \"Moved down 1 "
                 "place\", or \"People said\" when it did not move"},
    "explanation": {"type": "string", "description": "what people said, in words, e.g. \"2 people found this "
                    "relevant\"; after the headline, the result's explanation on the page"}}),
    "type": ["object", "null"],
    "description": "what people said of this result for this query, or an equivalent one (the same formula written "
                   "otherwise; the same question spaced or cased otherwise), each person once, which moved it up or "
                   "down a bounded number of places; null when nobody said anything"}
SCHEMAS = {
    "Error": object_of({"code": STRING, "message": STRING,
                        "pos": {"type": "integer", "description": "character offset of a parse error in the query"}},
                       optional=("pos",)),
    "Alignment": object_of({
        "query_labels": {"type": "array", "items": STRING}, "result_labels": {"type": "array", "items": STRING},
        "pairs": {"type": "array", "description": "[query node, result node, cosine], node = pre-order index",
                  "items": _tuple(INTEGER, INTEGER, NUMBER)}}),
    "Elsewhere": object_of({"id": INTEGER, "corpus": STRING}),
    "Snippet": object_of({"post_id": INTEGER, "source_id": STRING, "title": STRING, "url": STRING,
                          "before": {"type": "string", "description": "the post's words before the formula, its own "
                                     "formulas as $…$, led by … where the post goes on"},
                          "latex": STRING,
                          "after": {"type": "string", "description": "the words after it, ending in … where the post "
                                    "goes on"},
                          "in_title": {"type": "boolean", "description": "the formula is in the post's title, not its "
                                       "body (no words around it)"},
                          "anchor": {"type": "string", "description": "the formula's id on the post's page (`/post/ID#"
                                     "anchor` lands on it); empty for a formula of the title"},
                          "number": {"type": "string", "description": "the number its document prints for it, e.g. "
                                     "`2.14` for (2.14); empty when it has none"}}),
    "SearchResults": object_of({
        "query": STRING, "notation": NOTATION, "fusion": {"type": "string", "enum": list(ORDERS)},
        "macros": MACROS, "candidates": INTEGER, "elapsed_ms": NUMBER,
        "readings": {"type": "integer", "minimum": 1, "description": "the readings of the query searched: more than "
                     "one where the corpus's documents define a macro it wrote in several ways (each definition that "
                     "fits it, up to 3, its results merged by each formula's best score)"},
        "latex_from_unicode": {"type": ["string", "null"], "description": "the LaTeX that a LaTeX query written with "
                               "Unicode math (`x²`, `a₁`, `√2`, `∑`, `ℝ`, `½`) was read as (its notation stays `latex`); "
                               "null when it has none"},
        "long_formula": {**object_of({"note": STRING, "symbols": INTEGER, "parts": {"type": "array", "items": STRING}}),
                         "type": ["object", "null"],
                         "description": "for a formula with more symbols than one search compares: its largest parts "
                                        "that fit (their LaTeX), each searched as a query, the results fused by the "
                                        "mean of their scores; `note` says so in words. null for a formula searched "
                                        "whole"},
        "impression_id": {"type": ["integer", "null"], "description": "this page of results as logged, which counts "
                          "nothing by being served: send it with a click on one of them (feedback `impression_id`) "
                          "for the click to count, keeping the session cookie this answer or the click gives; null "
                          "when nothing was shown, or for a crawler"},
        "results": {"type": "array", "items": object_of({
            "id": INTEGER, "rank": INTEGER, "latex": STRING, "notation": NOTATION, "corpus": STRING,
            "score": {"type": "number", "description": "how alike: the F1 (or chosen fusion) of the SLG and OPG "
                      "scores, mean cosines in [-1, 1]; with `learned`, plus the ranker's correction; with `context`, "
                      "fused with the words' cosine. The same for the same query and index: people's feedback "
                      "changes the order (`feedback.moved`), never the score"},
            "also_in": {"type": "array", "description": "the same formula in the other corpora searched: listed once, "
                        "here", "items": ref("schemas", "Elsewhere")},
            "bindings": {"type": ["object", "null"], "additionalProperties": STRING,
                         "description": "for a query with query variables (`\\qvar{x}` or `?x`), when this formula "
                                        "holds the query exactly: the LaTeX each variable stands for, which put into "
                                        "the query gives the formula or one of its sub-expressions (such results "
                                        "come first); else null"},
            "parts": {"type": "object", "description": "the scores fused: slg, opg, context when words were given",
                      "additionalProperties": NUMBER},
            "alignment": {"type": "object", "additionalProperties": ref("schemas", "Alignment")},
            "signals": {"type": "array", "description": "the learned ranker's features that raised this result most, "
                        "each with its share of the correction to `score` (SHAP)",
                        "items": object_of({"feature": {"type": "string", "enum": list(FEATURES)}, "meaning": STRING,
                                            "contribution": NUMBER})},
            "posts": {"type": "array", "description": "the first posts it occurs in", "items": ref("schemas", "Snippet")},
            "occurrences": {"type": "integer", "description": "how often it occurs in all, `posts` shows the first"},
            "feedback": PEOPLE,
            "explored": {"type": "boolean", "description": "shown higher than it ranks (from rank 11 on) because few "
                         "people have seen it for this often-asked query: a click on it tells whether it should rise"}})}}),
    "Post": object_of({
        "id": INTEGER, "source_id": STRING, "corpus": STRING, "title": STRING,
        "body": {"type": "string", "description": "the text, its formulas written $…$ where they stand"},
        "url": STRING, "tags": {"type": "array", "items": STRING},
        "question": {**object_of({"id": INTEGER, "title": STRING, "url": STRING}), "type": ["object", "null"],
                     "description": "the question this post answers; null for a question"},
        "answers": {"type": "array", "items": object_of({"id": INTEGER, "url": STRING})},
        "formulas": {"type": "array", "description": "each formula once, in the order the post first writes it",
                     "items": object_of({"formula_id": INTEGER, "latex": STRING, "count": INTEGER,
                                         "in_title": {"type": "boolean"}})},
        "also_in": {"type": "array", "description": "the same post (same source address and id) in other corpora",
                    "items": ref("schemas", "Elsewhere")},
        "related": {"type": "array", "description": "the questions of its corpus nearest in words to its thread",
                    "items": object_of({"id": INTEGER, "title": STRING})}}),
    "PostResults": object_of({
        "question": STRING, "mode": {"type": "string", "enum": list(MODES)}, "candidates": INTEGER,
        "elapsed_ms": NUMBER,
        "unread_formulas": {"type": "array", "description": "question formulas that could not be parsed",
                            "items": object_of({"latex": STRING, "error": STRING})},
        "macros": {**MACROS, "description": "the macros of the corpus searched that the question's formulas wrote: "
                   "they were read with the corpus's own definitions of them"},
        "results": {"type": "array", "items": object_of({
            "rank": INTEGER, "score": NUMBER,
            "parts": {"type": "object", "description": "the mode's signals: text, bm25, formula, marf",
                      "additionalProperties": NUMBER},
            "post": object_of({
                "id": INTEGER, "source_id": STRING, "corpus": STRING, "title": STRING, "url": STRING, "snippet": STRING,
                "question": {**object_of({"id": INTEGER, "title": STRING, "url": STRING}), "type": ["object", "null"]}}),
            "also_in": {"type": "array", "description": "the same post (same source address and id) in the other corpora "
                        "searched: listed once, here", "items": ref("schemas", "Elsewhere")},
            "matched_formula": {**object_of({"id": INTEGER, "latex": STRING, "anchor": {
                "type": "string", "description": "where it stands on the post's page (`/post/ID#anchor`); empty when it "
                "is in the title or the question only"}}), "type": ["object", "null"]},
            "feedback": PEOPLE})}}),
    "Formula": object_of({
        "id": INTEGER, "latex": STRING, "notation": NOTATION, "corpus": STRING, "slt_string": STRING,
        "occurrences": INTEGER, "posts": {"type": "array", "items": ref("schemas", "Snippet")},
        "also_in": {"type": "array", "description": "the same formula in other corpora",
                    "items": ref("schemas", "Elsewhere")},
        "trees": object_of({"slt": TREE, "opt": TREE})}),
    "FeedbackInput": {"oneOf": [ref("schemas", "FormulaFeedbackInput"), ref("schemas", "PostFeedbackInput")],
                      "description": "a signal on a formula (`formula_id`) or on an answer (`post_id`), not both"},
    "FormulaFeedbackInput": _feedback_input("formula_id", MAX_FORMULA_ID, "post_id", ORDERS, DEFAULT_ORDER,
                                            {"impression_id": IMPRESSION_ID}),
    "PostFeedbackInput": _feedback_input("post_id", MAX_POST_ID, "formula_id", MODES, DEFAULT_MODE),
    "Feedback": object_of({"id": {"type": ["integer", "null"], "description": "null once a judgment is taken back"},
                           "query": STRING, "formula_id": {"type": ["integer", "null"]},
                           "post_id": {"type": ["integer", "null"]}, "kind": {"type": "string", "enum": list(KINDS)},
                           "rank": INTEGER, "fusion": {"type": "string", "enum": list(dict.fromkeys(ORDERS + MODES))},
                           "impression_id": {"type": ["integer", "null"]},
                           "explanation": {"type": "string", "description": "what people now say of the result for "
                                           "this query, in words; empty when nothing"}}),
    "LooksInput": object_of({"impression_id": {**IMPRESSION_ID, "description": "the page: the `impression_id` its search "
                                               "answered"},
                             "formula_ids": {"type": "array", "minItems": 1, "maxItems": MAX_LOOKS_SENT,
                                             "items": {"type": "integer", "minimum": 1, "maximum": MAX_FORMULA_ID},
                                             "description": "formulas of the page that were on the person's screen"}}),
}

