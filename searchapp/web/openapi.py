"""The OpenAPI 3.1 description of the JSON API, written by hand (the API is small and changes rarely).

Every bound and choice is read from where the code enforces it (searchapp.web.params, the feedback actions), so the
document cannot drift from the validation; tests/app/web/test_openapi.py validates it and fuzzes the API against it.
"""
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
from searchapp.web.params import CORPUS_NAME_CHARS, DEFAULT_K, MAX_K, MAX_OFFSET, MAX_QUERY_CHARS, MAX_TAG_CHARS, QUERY_NOTATIONS


def _ref(kind: str, name: str) -> dict:
    return {"$ref": f"#/components/{kind}/{name}"}


def _json(description: str, schema: dict) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _error(description: str) -> dict:
    return _json(description, _ref("schemas", "Error"))


def _query(name: str, description: str, schema: dict, required: bool = False) -> dict:
    """A query parameter; an optional one given empty counts as absent, as the search page's forms send them."""
    parameter = {"name": name, "in": "query", "required": required, "description": description, "schema": schema}
    return parameter if required else {**parameter, "allowEmptyValue": True}


def _body_of(parameters: list[dict]) -> dict:
    """The JSON object a POST of a search takes: its GET's query parameters as fields, with their schemas and
    descriptions; a field left out takes its default, one the operation lacks is a 400 `unknown_parameter`."""
    return {"type": "object", "required": [p["name"] for p in parameters if p["required"]],
            "properties": {p["name"]: {**p["schema"], "description": p["description"]} for p in parameters},
            "additionalProperties": False}


def _posted(get: dict, operation_id: str, example: dict) -> dict:
    """`get` (a search) as a POST of a JSON body, for a query whose URL would be too long for a proxy or client: 5,000
    characters are up to 60 KB URL-encoded, where many stop at 8 KB. No CSRF token is needed: it changes nothing."""
    return {
        "summary": f"{get['summary']}, the parameters as a JSON body",
        "description": "The same search as the GET, its parameters given as a JSON object: for a query too long for a "
                       "URL. Needs no CSRF token. A body that is not JSON is a 415 `unsupported_media_type`; invalid "
                       "JSON a 400 `invalid_json`; a field the operation lacks a 400 `unknown_parameter`; a field of "
                       "the wrong JSON type a 400 `invalid_parameter`.",
        "operationId": operation_id, "tags": get["tags"],
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": _body_of(get["parameters"]), "example": example}}},
        "responses": {**{status: answer for status, answer in get["responses"].items() if status != "414"},
                      "413": _error("the body is larger than the server reads (64 KB)"),
                      "415": _error("the body is not `application/json` (code `unsupported_media_type`)")},
    }


def _feedback_input(target: str, high: int, other: str, orders: tuple[str, ...], default: str,
                    extra: dict | None = None) -> dict:
    """The feedback body on one kind of result, without the other kind's id, so that a body naming both matches
    neither (`oneOf`), as the API refuses it. `fusion` is what ordered the results; `extra` are optional fields."""
    return {**_object({
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


def _object(properties: dict, optional: tuple[str, ...] = ()) -> dict:
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

NO_NUL = r"^[^\x00]*$"  # Postgres text cannot hold one (searchapp.errors.check_text)
BLANK = "".join(f"\\u{ord(c):04x}" for c in map(chr, range(0x10000)) if c.isspace())
"""What str.strip() removes, spelled out: JSON Schema's `\\s` is ECMAScript's, which differs (U+001C–U+001F, U+0085,
U+FEFF). Every whitespace character is in the Basic Multilingual Plane."""
TEXT = {"type": "string", "minLength": 1, "maxLength": MAX_QUERY_CHARS, "pattern": f"^[^\\x00]*[^\\x00{BLANK}][^\\x00]*$",
        "description": "not blank, no NUL character"}
QUESTION = {**TEXT, "pattern": f"^[^\\x00]*[^\\x00${BLANK}][^\\x00]*$",
            "description": "not blank, not only dollar signs, no NUL character"}
NOTATION = {"type": "string", "enum": list(NOTATIONS),
            "description": "the notation the formula was read from; `latex` is rendered from its SLT when not LaTeX"}

PAGING = [_query("k", "results to return", {"type": "integer", "minimum": 1, "maximum": MAX_K, "default": DEFAULT_K}),
          _query("offset", "results to skip", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET, "default": 0})]
CORPUS = {"type": "string", "maxLength": CORPUS_NAME_CHARS, "pattern": NO_NUL, "description": "empty for every corpus"}
LONG_URL = {"description": "never for the parameters' own limits: the server reads a URL of 256 KB, and the longest the "
                           "parameters make is about 121 KB; a longer URL, or one past a proxy's or client's own limit "
                           "(often 8 KB), is refused in the server's or proxy's format, not JSON: POST the parameters "
                           "instead"}
MACROS = {"type": "array", "items": STRING,
          "description": "the macros of the corpus searched that the query wrote (names without the backslash, in "
                         "order of first use): it was read with the corpus's own definitions of them, the most common "
                         "among its documents first (`readings`); empty when none was expanded"}
UNKNOWN_CORPUS = _error("no corpus has the name given as `corpus` (code `unknown_corpus`; the message names those there are)")

SEARCH = {
    "get": {
        "summary": "Formulas most similar to a query formula (LaTeX, MathML or a Tangent SLT string)",
        "operationId": "search", "tags": ["search"],
        "parameters": [
            _query("q", "the query formula, in `notation`; a query variable (`\\qvar{x}` in LaTeX, `<mws:qvar name=\"x\"/>` "
                   "in MathML, `W!x` in an SLT string) stands for any sub-expression; LaTeX may write math in Unicode "
                   "(`x² + y² = z²`), read as LaTeX (`latex_from_unicode`); a formula too long to search whole is "
                   "searched by its largest parts (`long_formula`)",
                   {**TEXT, "examples": ["x^2 + y^2 = z^2"]}, required=True),
            _query("notation", "how q is written; `auto` reads `<math …>` as MathML and `[V!x…]` as a Tangent SLT string",
                   {"type": "string", "enum": list(QUERY_NOTATIONS), "default": "latex"}),
            *PAGING,
            _query("fusion", "how candidates are ordered: `learned` by the LambdaMART ranker over dense and structural "
                   "signals (the dense `f1` fusion when no ranker is trained), or one fusion of the SLG and OPG scores",
                   {"type": "string", "enum": list(ORDERS), "default": DEFAULT_ORDER}),
            _query("corpus", "only formulas of this corpus; a LaTeX q is read with the macros its documents define "
                   "(the answer's `macros` names those q wrote)", CORPUS),
            _query("context", "words around the formula sought: fused with the words around each candidate's "
                   "occurrences, S = λ·S_formula + (1 − λ)·cos (SSEmb); each result's parts then include `context`",
                   {"type": "string", "maxLength": MAX_QUERY_CHARS, "pattern": NO_NUL}),
        ],
        "responses": {"200": _json("ranked results", _ref("schemas", "SearchResults")),
                      "414": LONG_URL,
                      "400": _error("missing or invalid parameter, or a query that cannot be read in its notation "
                                    "(code `<notation>_<kind>`, with pos), is too large to search and has no part "
                                    "that can be (`query_too_large`) "
                                    "or is query variables alone (`query_only_variables`)"),
                      "404": UNKNOWN_CORPUS, "503": _ref("responses", "Unavailable"), "500": _ref("responses", "ServerError")},
    },
}
SEARCH["post"] = _posted(SEARCH["get"], "searchPosted", {"q": "\\frac{1}{n^2}", "k": 10, "fusion": DEFAULT_ORDER})

POSTS = {
    "get": {
        "summary": "Answers to a question written as text with $…$ formulas",
        "operationId": "posts", "tags": ["search"],
        "parameters": [
            _query("q", "the question: words and `$…$` / `$$…$$` formulas",
                   {**QUESTION, "examples": ["Why is $\\sum_{n=1}^{\\infty} 1/n^2 = \\pi^2/6$?"]}, required=True),
            *PAGING,
            _query("mode", "how answers are scored: `ssemb` weighs formulas and words, `marf` compares the question's "
                   "words fused with its formulas by MaRF's cross-attention to each post's (falls back to `ssemb`, and "
                   "says so in `mode`, when no fusion is trained), `text` the words' MiniLM cosine, `bm25` Okapi BM25 "
                   "over English stems, `formula` the question's formulas alone",
                   {"type": "string", "enum": list(MODES), "default": DEFAULT_MODE}),
            _query("corpus", "only posts of this corpus; the question's formulas are read with the macros its "
                   "documents define (the answer's `macros` names them)", CORPUS),
            _query("tag", "only posts with this tag and the answers to questions with it",
                   {"type": "string", "maxLength": MAX_TAG_CHARS}),
        ],
        "responses": {"200": _json("ranked answers", _ref("schemas", "PostResults")),
                      "400": _error("missing or invalid parameter"), "404": UNKNOWN_CORPUS,
                      "414": LONG_URL,
                      "503": _ref("responses", "Unavailable"), "500": _ref("responses", "ServerError")},
    },
}
POSTS["post"] = _posted(POSTS["get"], "postsPosted", {"q": "Why is $\\sum_{n=1}^{\\infty} 1/n^2 = \\pi^2/6$?", "k": 10})

def _one(name: str, summary: str) -> dict:
    """GET of one stored `name` (a schema, its operation in lower case) by its id."""
    return {"get": {
        "summary": summary, "operationId": name.lower(), "tags": ["stored"],
        "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 0}}],
        "responses": {"200": _json(f"the {name.lower()}", _ref("schemas", name)), "404": _error(f"no such {name.lower()}"),
                      "503": _ref("responses", "Unavailable"), "500": _ref("responses", "ServerError")},
    }}


POST = _one("Post", "One post: its text, its question or answers, its formulas and related threads")
FORMULA = _one("Formula", "One stored formula: its posts and its SLT / OPT")

SIGNAL_ERRORS = {
    "400": _error("invalid field, or a body that is not a JSON object"),
    "413": _error("the body is larger than the server reads"),
    "429": _error("too many signals; try again in a minute"),
    "503": _ref("responses", "Unavailable"), "500": _ref("responses", "ServerError"),
}
"""The errors feedback and looks share: both take a small posted body, rate-limited together."""

FEEDBACK = {
    "post": {
        "summary": "Record a click on a result, or a relevance judgment",
        "description": "Needs Django's CSRF token (cookie `csrftoken`, header `X-CSRFToken`). "
                       "Rate-limited per session and address. A click is logged, and counts only when it names "
                       "the page it was made on (`impression_id`, as the search answered it; keep the session "
                       "cookie from the search on, or the click's first answer gives one). A judgment is the "
                       "sender's one answer for this query's meaning (the same formula however written) and result "
                       "(the logged-in user's, else the session's): a new kind replaces it and `none` takes it back. "
                       "Each person counts once per query and result, however often they click. A crawler's user "
                       "agent is refused.",
        "operationId": "feedback", "tags": ["feedback"],
        "requestBody": {"required": True, "content": {
            "application/json": {"schema": _ref("schemas", "FeedbackInput")},
            "application/x-www-form-urlencoded": {"schema": _ref("schemas", "FeedbackInput")},
        }},
        "responses": {"201": _json("stored: a click, or a first judgment", _ref("schemas", "Feedback")),
                      "200": _json("a judgment replaced, or taken back", _ref("schemas", "Feedback")),
                      "403": _error("CSRF check failed (`csrf_failed`), a crawler's user agent (`crawler`), or an "
                                    "`impression_id` served to someone else (`not_yours`)"),
                      "404": _error("no such formula, post or impression"), **SIGNAL_ERRORS},
    },
}

LOOKS = {
    "post": {
        "summary": "Report the results of a page that its person saw",
        "description": "A page served counts nothing by itself: a result counts as seen only when the person's "
                       "screen showed it. The results page sends this for each result in view for about a second "
                       "(as a form, the CSRF token in `csrfmiddlewaretoken`); an API client whose own page shows "
                       "results may send it too (JSON, the token in `X-CSRFToken`), with the client's session cookie "
                       "from the search. Formulas not on the page are ignored; a repeat counts once. Needs the CSRF "
                       "token; rate-limited with feedback; nothing is counted for a crawler.",
        "operationId": "looks", "tags": ["feedback"],
        "requestBody": {"required": True, "content": {
            "application/json": {"schema": _ref("schemas", "LooksInput")},
            "application/x-www-form-urlencoded": {"schema": _ref("schemas", "LooksInput")},
        }},
        "responses": {"204": {"description": "counted"},
                      "403": _error("CSRF check failed (`csrf_failed`), or the page was served to someone else "
                                    "(`not_yours`)"),
                      "404": _error("no such impression"), **SIGNAL_ERRORS},
    },
}

LATEX = {
    "get": {
        "summary": "The LaTeX a query written with Unicode math is read as",
        "description": "What a search reads a LaTeX query as: its superscripts and subscripts, Greek letters and "
                       "symbols, vulgar fractions, roots and mathematical alphanumerics in LaTeX (`x² + √2` is "
                       "`x^{2} + \\sqrt{2}`), the rest as given. The search page's formula editor shows a query so.",
        "operationId": "latex", "tags": ["search"],
        "parameters": [_query("q", "the query, as `/api/search` reads it in LaTeX",
                              {**TEXT, "examples": ["x² + y² = z²"]}, required=True)],
        "responses": {"200": _json("the LaTeX read", _object({"latex": STRING})), "414": LONG_URL,
                      "400": _error("missing or invalid q"),
                      "503": _ref("responses", "Unavailable"), "500": _ref("responses", "ServerError")},
    },
}

SCHEMA = {
    "get": {
        "summary": "This document", "operationId": "schema", "tags": ["documentation"],
        "responses": {"200": _json("the OpenAPI 3.1 document", {"type": "object"})},
    },
}

DOCS = {
    "get": {
        "summary": "This document for people: an HTML page that draws it", "operationId": "docs",
        "tags": ["documentation"],
        "responses": {"200": {"description": "the page", "content": {"text/html": {"schema": STRING}}},
                      "503": _ref("responses", "Unavailable"), "500": _ref("responses", "ServerError")},
    },
}

TREE = {"type": ["object", "null"], "required": ["labels", "edges"], "properties": {
    "labels": {"type": "array", "items": STRING, "description": "node labels in pre-order"},
    "edges": {"type": "array", "description": "[parent index, child index, edge label]",
              "items": _tuple(INTEGER, INTEGER, STRING)},
}}

PEOPLE = {**_object({
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
    "Error": _object({"code": STRING, "message": STRING,
                      "pos": {"type": "integer", "description": "character offset of a parse error in the query"}},
                     optional=("pos",)),
    "Alignment": _object({
        "query_labels": {"type": "array", "items": STRING}, "result_labels": {"type": "array", "items": STRING},
        "pairs": {"type": "array", "description": "[query node, result node, cosine], node = pre-order index",
                  "items": _tuple(INTEGER, INTEGER, NUMBER)}}),
    "Elsewhere": _object({"id": INTEGER, "corpus": STRING}),
    "Snippet": _object({"post_id": INTEGER, "source_id": STRING, "title": STRING, "url": STRING,
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
    "SearchResults": _object({
        "query": STRING, "notation": NOTATION, "fusion": {"type": "string", "enum": list(ORDERS)},
        "macros": MACROS, "candidates": INTEGER, "elapsed_ms": NUMBER,
        "readings": {"type": "integer", "minimum": 1, "description": "the readings of the query searched: more than "
                     "one where the corpus's documents define a macro it wrote in several ways (each definition that "
                     "fits it, up to 3, its results merged by each formula's best score)"},
        "latex_from_unicode": {"type": ["string", "null"], "description": "the LaTeX that a LaTeX query written with "
                               "Unicode math (`x²`, `a₁`, `√2`, `∑`, `ℝ`, `½`) was read as (its notation stays `latex`); "
                               "null when it has none"},
        "long_formula": {**_object({"note": STRING, "symbols": INTEGER, "parts": {"type": "array", "items": STRING}}),
                         "type": ["object", "null"],
                         "description": "for a formula with more symbols than one search compares: its largest parts "
                                        "that fit (their LaTeX), each searched as a query, the results fused by the "
                                        "mean of their scores; `note` says so in words. null for a formula searched "
                                        "whole"},
        "impression_id": {"type": ["integer", "null"], "description": "this page of results as logged, which counts "
                          "nothing by being served: send it with a click on one of them (feedback `impression_id`) "
                          "for the click to count, keeping the session cookie this answer or the click gives; null "
                          "when nothing was shown, or for a crawler"},
        "results": {"type": "array", "items": _object({
            "id": INTEGER, "rank": INTEGER, "latex": STRING, "notation": NOTATION, "corpus": STRING,
            "score": {"type": "number", "description": "how alike: the F1 (or chosen fusion) of the SLG and OPG "
                      "scores, mean cosines in [-1, 1]; with `learned`, plus the ranker's correction; with `context`, "
                      "fused with the words' cosine. The same for the same query and index: people's feedback "
                      "changes the order (`feedback.moved`), never the score"},
            "also_in": {"type": "array", "description": "the same formula in the other corpora searched: listed once, "
                        "here", "items": _ref("schemas", "Elsewhere")},
            "bindings": {"type": ["object", "null"], "additionalProperties": STRING,
                         "description": "for a query with query variables (`\\qvar{x}` or `?x`), when this formula "
                                        "holds the query exactly: the LaTeX each variable stands for, which put into "
                                        "the query gives the formula or one of its sub-expressions (such results "
                                        "come first); else null"},
            "parts": {"type": "object", "description": "the scores fused: slg, opg, context when words were given",
                      "additionalProperties": NUMBER},
            "alignment": {"type": "object", "additionalProperties": _ref("schemas", "Alignment")},
            "signals": {"type": "array", "description": "the learned ranker's features that raised this result most, "
                        "each with its share of the correction to `score` (SHAP)",
                        "items": _object({"feature": {"type": "string", "enum": list(FEATURES)}, "meaning": STRING,
                                          "contribution": NUMBER})},
            "posts": {"type": "array", "description": "the first posts it occurs in", "items": _ref("schemas", "Snippet")},
            "occurrences": {"type": "integer", "description": "how often it occurs in all, `posts` shows the first"},
            "feedback": PEOPLE,
            "explored": {"type": "boolean", "description": "shown higher than it ranks (from rank 11 on) because few "
                         "people have seen it for this often-asked query: a click on it tells whether it should rise"}})}}),
    "Post": _object({
        "id": INTEGER, "source_id": STRING, "corpus": STRING, "title": STRING,
        "body": {"type": "string", "description": "the text, its formulas written $…$ where they stand"},
        "url": STRING, "tags": {"type": "array", "items": STRING},
        "question": {**_object({"id": INTEGER, "title": STRING, "url": STRING}), "type": ["object", "null"],
                     "description": "the question this post answers; null for a question"},
        "answers": {"type": "array", "items": _object({"id": INTEGER, "url": STRING})},
        "formulas": {"type": "array", "description": "each formula once, in the order the post first writes it",
                     "items": _object({"formula_id": INTEGER, "latex": STRING, "count": INTEGER,
                                       "in_title": {"type": "boolean"}})},
        "also_in": {"type": "array", "description": "the same post (same source address and id) in other corpora",
                    "items": _ref("schemas", "Elsewhere")},
        "related": {"type": "array", "description": "the questions of its corpus nearest in words to its thread",
                    "items": _object({"id": INTEGER, "title": STRING})}}),
    "PostResults": _object({
        "question": STRING, "mode": {"type": "string", "enum": list(MODES)}, "candidates": INTEGER,
        "elapsed_ms": NUMBER,
        "unread_formulas": {"type": "array", "description": "question formulas that could not be parsed",
                            "items": _object({"latex": STRING, "error": STRING})},
        "macros": {**MACROS, "description": "the macros of the corpus searched that the question's formulas wrote: "
                   "they were read with the corpus's own definitions of them"},
        "results": {"type": "array", "items": _object({
            "rank": INTEGER, "score": NUMBER,
            "parts": {"type": "object", "description": "the mode's signals: text, bm25, formula, marf",
                      "additionalProperties": NUMBER},
            "post": _object({
                "id": INTEGER, "source_id": STRING, "corpus": STRING, "title": STRING, "url": STRING, "snippet": STRING,
                "question": {**_object({"id": INTEGER, "title": STRING, "url": STRING}), "type": ["object", "null"]}}),
            "also_in": {"type": "array", "description": "the same post (same source address and id) in the other corpora "
                        "searched: listed once, here", "items": _ref("schemas", "Elsewhere")},
            "matched_formula": {**_object({"id": INTEGER, "latex": STRING, "anchor": {
                "type": "string", "description": "where it stands on the post's page (`/post/ID#anchor`); empty when it "
                "is in the title or the question only"}}), "type": ["object", "null"]},
            "feedback": PEOPLE})}}),
    "Formula": _object({
        "id": INTEGER, "latex": STRING, "notation": NOTATION, "corpus": STRING, "slt_string": STRING,
        "occurrences": INTEGER, "posts": {"type": "array", "items": _ref("schemas", "Snippet")},
        "also_in": {"type": "array", "description": "the same formula in other corpora",
                    "items": _ref("schemas", "Elsewhere")},
        "trees": _object({"slt": TREE, "opt": TREE})}),
    "FeedbackInput": {"oneOf": [_ref("schemas", "FormulaFeedbackInput"), _ref("schemas", "PostFeedbackInput")],
                      "description": "a signal on a formula (`formula_id`) or on an answer (`post_id`), not both"},
    "FormulaFeedbackInput": _feedback_input("formula_id", MAX_FORMULA_ID, "post_id", ORDERS, DEFAULT_ORDER,
                                            {"impression_id": IMPRESSION_ID}),
    "PostFeedbackInput": _feedback_input("post_id", MAX_POST_ID, "formula_id", MODES, DEFAULT_MODE),
    "Feedback": _object({"id": {"type": ["integer", "null"], "description": "null once a judgment is taken back"},
                         "query": STRING, "formula_id": {"type": ["integer", "null"]},
                         "post_id": {"type": ["integer", "null"]}, "kind": {"type": "string", "enum": list(KINDS)},
                         "rank": INTEGER, "fusion": {"type": "string", "enum": list(dict.fromkeys(ORDERS + MODES))},
                         "impression_id": {"type": ["integer", "null"]},
                         "explanation": {"type": "string", "description": "what people now say of the result for "
                                         "this query, in words; empty when nothing"}}),
    "LooksInput": _object({"impression_id": {**IMPRESSION_ID, "description": "the page: the `impression_id` its search "
                                             "answered"},
                           "formula_ids": {"type": "array", "minItems": 1, "maxItems": MAX_LOOKS_SENT,
                                           "items": {"type": "integer", "minimum": 1, "maximum": MAX_FORMULA_ID},
                                           "description": "formulas of the page that were on the person's screen"}}),
}

RESPONSES = {
    "Unavailable": {
        "description": "too busy (code `overloaded`), the data it needs locked by other work (code `busy`), or the "
                       "database or broker unreachable (code `unavailable`)",
        "headers": {"Retry-After": {"description": "seconds to wait before retrying", "required": True,
                                    "schema": {"type": "integer", "minimum": 1}}},
        "content": {"application/json": {"schema": _ref("schemas", "Error")}}},
    "ServerError": _error("an unexpected error (code `server_error`); it is logged"),
}


TAGS = [{"name": "search", "description": "Formulas like a query formula; answers to a question in words and formulas"},
        {"name": "stored", "description": "A formula or a post by its id, as its page shows it"},
        {"name": "feedback", "description": "Clicks, relevance judgements and what people saw, which reorder results "
                                             "and train the ranker"},
        {"name": "documentation", "description": "This document, as JSON and as a page"}]


def schema(server_url: str) -> dict:
    return {
        "openapi": "3.1.0",
        "info": {"title": "MathSearch API", "version": "1.0",
                 "description": "Search math formulas by structure.\n\n"
                                "Every answer is JSON, errors included: `{code, message}`, with `pos` (a character "
                                "offset) for a query that cannot be read. `code` is stable, `message` is for people. "
                                "An unknown /api/ route is a 404 `not_found`; a method a route does not take a 405 "
                                "`method_not_allowed` with `Allow`; a body over 64 KB a 413 `request_too_large`; a "
                                "failed CSRF check (feedback and looks only) a 403 `csrf_failed`; a busy or cut-off server a 503 "
                                "(`overloaded`, `unavailable`) with `Retry-After`; a fault of ours a 500 "
                                "`server_error`.\n\n"
                                "Both searches take their parameters as a query string (GET: shareable URLs) or as a "
                                "JSON body (POST): a query may have 5,000 characters, up to 60 KB in a URL, and "
                                "proxies and clients often refuse URLs over 8 KB."},
        "servers": [{"url": server_url}],
        "tags": TAGS,
        "paths": {"/api/search": SEARCH, "/api/posts": POSTS, "/api/formulas/{id}": FORMULA, "/api/posts/{id}": POST,
                  "/api/feedback": FEEDBACK, "/api/looks": LOOKS, "/api/latex": LATEX, "/api/schema": SCHEMA, "/api/docs": DOCS},
        "components": {"schemas": SCHEMAS, "responses": RESPONSES},
    }
