"""The OpenAPI 3 description of the JSON API, written by hand (the API is small and changes rarely)."""
from __future__ import annotations

from ml.formula import NOTATIONS
from ml.ranking.features import FEATURES
from searchapp.models import MAX_K, Feedback
from searchapp.search.posts import DEFAULT_MODE, MODES
from searchapp.search.query import MAX_QUERY_CHARS
from searchapp.search.ranking import DEFAULT_ORDER, ORDERS


def _error(description: str) -> dict:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _ok(description: str, ref: str) -> dict:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}}


def _query(name: str, description: str, schema: dict, required: bool = False) -> dict:
    return {"name": name, "in": "query", "required": required, "description": description, "schema": schema}


NOTATION = {"type": "string", "enum": list(NOTATIONS),
            "description": "the notation the formula was read from; `latex` is rendered from its SLT when not LaTeX"}

PAGING = [_query("k", "results to return", {"type": "integer", "minimum": 1, "maximum": MAX_K, "default": 10}),
          _query("offset", "results to skip", {"type": "integer", "minimum": 0, "default": 0})]

SEARCH = {
    "get": {
        "summary": "Formulas most similar to a query formula (LaTeX, MathML or a Tangent SLT string)",
        "operationId": "search",
        "parameters": [
            _query("q", "the query formula, in `notation`", {"type": "string", "maxLength": MAX_QUERY_CHARS},
                   required=True),
            _query("notation", "how q is written; `auto` reads `<math …>` as MathML and `[V!x…]` as a Tangent SLT string",
                   {"type": "string", "enum": ["latex", "mathml", "slt", "auto"], "default": "latex"}),
            *PAGING,
            _query("fusion", "how candidates are ordered: `learned` by the LambdaMART ranker over dense and structural "
                   "signals (the dense `f1` fusion when no ranker is trained), or one fusion of the SLG and OPG scores",
                   {"type": "string", "enum": list(ORDERS), "default": DEFAULT_ORDER}),
            _query("corpus", "only formulas of this corpus", {"type": "string"}),
            _query("context", "words around the formula sought: fused with the words around each candidate's "
                   "occurrences, S = λ·S_formula + (1 − λ)·cos (SSEmb); each result's parts then include `context`",
                   {"type": "string", "maxLength": MAX_QUERY_CHARS}),
        ],
        "responses": {"200": _ok("ranked results", "SearchResults"),
                      "400": _error("missing or invalid parameter, or a query that cannot be read in its notation "
                                    "(code `<notation>_<kind>`, with pos)")},
    },
}

POSTS = {
    "get": {
        "summary": "Answers to a question written as text with $…$ formulas",
        "operationId": "posts",
        "parameters": [
            _query("q", "the question: words and `$…$` / `$$…$$` formulas", {"type": "string", "maxLength": MAX_QUERY_CHARS},
                   required=True),
            *PAGING,
            _query("mode", "how answers are scored: `ssemb` weighs formulas and words, `marf` compares the question's "
                   "words fused with its formulas by MaRF's cross-attention to each post's (falls back to `ssemb`, and "
                   "says so in `mode`, when no fusion is trained), `text` the words' MiniLM cosine, `bm25` Okapi BM25 "
                   "over English stems, `formula` the question's formulas alone",
                   {"type": "string", "enum": list(MODES), "default": DEFAULT_MODE}),
            _query("corpus", "only posts of this corpus", {"type": "string"}),
        ],
        "responses": {"200": _ok("ranked answers", "PostResults"), "400": _error("missing or invalid parameter")},
    },
}

FORMULA = {
    "get": {
        "summary": "One stored formula: its posts and its SLT / OPT",
        "operationId": "formula",
        "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}],
        "responses": {"200": _ok("the formula", "Formula"), "404": _error("no such formula")},
    },
}

FEEDBACK = {
    "post": {
        "summary": "Record a click on a result or a relevance judgement",
        "description": "Needs Django's CSRF token (cookie `csrftoken`, header `X-CSRFToken`). "
                       "Rate-limited per session and address.",
        "operationId": "feedback",
        "requestBody": {"required": True, "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/FeedbackInput"}},
            "application/x-www-form-urlencoded": {"schema": {"$ref": "#/components/schemas/FeedbackInput"}},
        }},
        "responses": {"201": _ok("stored", "Feedback"), "400": _error("invalid field"),
                      "403": _error("CSRF check failed"), "404": _error("no such formula"),
                      "429": _error("too many signals; try again in a minute")},
    },
}

TREE = {"type": ["object", "null"], "properties": {
    "labels": {"type": "array", "items": {"type": "string"}, "description": "node labels in pre-order"},
    "edges": {"type": "array", "description": "[parent index, child index, edge label]",
              "items": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"},
                                                         {"type": "string"}]}},
}}

SCHEMAS = {
    "Error": {"type": "object", "required": ["code", "message"], "properties": {
        "code": {"type": "string"}, "message": {"type": "string"},
        "pos": {"type": "integer", "description": "character offset of a LaTeX error in the query"}}},
    "Alignment": {"type": "object", "properties": {
        "query_labels": {"type": "array", "items": {"type": "string"}},
        "result_labels": {"type": "array", "items": {"type": "string"}},
        "pairs": {"type": "array", "description": "[query node, result node, cosine], node = pre-order index",
                  "items": {"type": "array"}}}},
    "SearchResults": {"type": "object", "properties": {
        "query": {"type": "string"}, "notation": NOTATION,
        "fusion": {"type": "string"}, "candidates": {"type": "integer"},
        "elapsed_ms": {"type": "number"},
        "results": {"type": "array", "items": {"type": "object", "properties": {
            "id": {"type": "integer"}, "rank": {"type": "integer"}, "latex": {"type": "string"},
            "notation": NOTATION, "corpus": {"type": "string"}, "score": {"type": "number"},
            "parts": {"type": "object", "properties": {"slg": {"type": "number"}, "opg": {"type": "number"},
                                                       "context": {"type": "number"}}},
            "alignment": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Alignment"}},
            "signals": {"type": "array", "description": "the learned ranker's features that raised this result most",
                        "items": {"type": "object", "properties": {
                            "feature": {"type": "string", "enum": list(FEATURES)}, "meaning": {"type": "string"},
                            "contribution": {"type": "number"}}}},
            "posts": {"type": "array", "items": {"type": "object"}}}}}}},
    "PostResults": {"type": "object", "properties": {
        "question": {"type": "string"}, "mode": {"type": "string"}, "candidates": {"type": "integer"},
        "elapsed_ms": {"type": "number"},
        "unread_formulas": {"type": "array", "description": "question formulas that could not be parsed",
                            "items": {"type": "object", "properties": {"latex": {"type": "string"},
                                                                       "error": {"type": "string"}}}},
        "results": {"type": "array", "items": {"type": "object", "properties": {
            "rank": {"type": "integer"}, "score": {"type": "number"},
            "parts": {"type": "object", "properties": {name: {"type": "number"}
                                                       for name in ("text", "bm25", "formula", "marf")}},
            "post": {"type": "object", "properties": {
                "id": {"type": "integer"}, "source_id": {"type": "string"}, "corpus": {"type": "string"},
                "title": {"type": "string"}, "url": {"type": "string"}, "snippet": {"type": "string"},
                "question": {"type": ["object", "null"], "properties": {
                    "id": {"type": "integer"}, "title": {"type": "string"}, "url": {"type": "string"}}}}},
            "matched_formula": {"type": ["object", "null"], "properties": {
                "id": {"type": "integer"}, "latex": {"type": "string"}}}}}}}},
    "Formula": {"type": "object", "properties": {
        "id": {"type": "integer"}, "latex": {"type": "string"}, "notation": NOTATION, "corpus": {"type": "string"},
        "slt_string": {"type": "string"}, "occurrences": {"type": "integer"},
        "posts": {"type": "array", "items": {"type": "object"}},
        "trees": {"type": "object", "properties": {"slt": TREE, "opt": TREE}}}},
    "FeedbackInput": {"type": "object", "required": ["query", "formula_id", "kind", "rank"], "properties": {
        "query": {"type": "string"}, "formula_id": {"type": "integer"},
        "kind": {"type": "string", "enum": list(Feedback.Kind.values)}, "rank": {"type": "integer", "minimum": 1},
        "fusion": {"type": "string", "enum": list(ORDERS), "default": DEFAULT_ORDER}}},
    "Feedback": {"type": "object", "properties": {
        "id": {"type": "integer"}, "query": {"type": "string"}, "formula_id": {"type": "integer"},
        "kind": {"type": "string"}, "rank": {"type": "integer"}, "fusion": {"type": "string"}}},
}


def schema(server_url: str) -> dict:
    return {
        "openapi": "3.1.0",
        "info": {"title": "MathSearch API", "version": "1.0",
                 "description": "Search math formulas by structure. Errors are JSON {code, message, pos?}."},
        "servers": [{"url": server_url}],
        "paths": {"/api/search": SEARCH, "/api/posts": POSTS, "/api/formulas/{id}": FORMULA, "/api/feedback": FEEDBACK,
                  "/api/schema": {"get": {"summary": "This document", "operationId": "schema",
                                          "responses": {"200": {"description": "OpenAPI 3 document"}}}}},
        "components": {"schemas": SCHEMAS},
    }
