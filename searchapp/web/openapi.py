"""The OpenAPI 3.1 description of the JSON API, written by hand (the API is small and changes rarely).

Every bound and choice is read from where the code enforces it (searchapp.web.params, the feedback actions), so the
document cannot drift from the validation; tests/app/web/test_openapi.py validates it and fuzzes the API against it.
The paths are here; the schemas of what they take and answer are in `searchapp.web.openapi_schemas`.
"""
from __future__ import annotations

from searchapp.search.questions import DEFAULT_MODE, MODES
from searchapp.search.ranking import DEFAULT_ORDER, ORDERS
from searchapp.web.openapi_schemas import QUESTION, SCHEMAS, STRING, TEXT, object_of, ref
from searchapp.web.params import CORPUS_NAME_CHARS, DEFAULT_K, MAX_K, MAX_OFFSET, MAX_QUERY_CHARS, MAX_TAG_CHARS, QUERY_NOTATIONS


def _json(description: str, schema: dict) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _error(description: str) -> dict:
    return _json(description, ref("schemas", "Error"))


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


NO_NUL = r"^[^\x00]*$"  # Postgres text cannot hold one (searchapp.errors.check_text)

PAGING = [_query("k", "results to return", {"type": "integer", "minimum": 1, "maximum": MAX_K, "default": DEFAULT_K}),
          _query("offset", "results to skip", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET, "default": 0})]
CORPUS = {"type": "string", "maxLength": CORPUS_NAME_CHARS, "pattern": NO_NUL, "description": "empty for every corpus"}
LONG_URL = {"description": "never for the parameters' own limits: the server reads a URL of 256 KB, and the longest the "
                           "parameters make is about 121 KB; a longer URL, or one past a proxy's or client's own limit "
                           "(often 8 KB), is refused in the server's or proxy's format, not JSON: POST the parameters "
                           "instead"}
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
        "responses": {"200": _json("ranked results", ref("schemas", "SearchResults")),
                      "414": LONG_URL,
                      "400": _error("missing or invalid parameter, or a query that cannot be read in its notation "
                                    "(code `<notation>_<kind>`, with pos), is too large to search and has no part "
                                    "that can be (`query_too_large`) "
                                    "or is query variables alone (`query_only_variables`)"),
                      "404": UNKNOWN_CORPUS, "503": ref("responses", "Unavailable"), "500": ref("responses", "ServerError")},
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
        "responses": {"200": _json("ranked answers", ref("schemas", "PostResults")),
                      "400": _error("missing or invalid parameter"), "404": UNKNOWN_CORPUS,
                      "414": LONG_URL,
                      "503": ref("responses", "Unavailable"), "500": ref("responses", "ServerError")},
    },
}
POSTS["post"] = _posted(POSTS["get"], "postsPosted", {"q": "Why is $\\sum_{n=1}^{\\infty} 1/n^2 = \\pi^2/6$?", "k": 10})

def _one(name: str, summary: str) -> dict:
    """GET of one stored `name` (a schema, its operation in lower case) by its id."""
    return {"get": {
        "summary": summary, "operationId": name.lower(), "tags": ["stored"],
        "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 0}}],
        "responses": {"200": _json(f"the {name.lower()}", ref("schemas", name)), "404": _error(f"no such {name.lower()}"),
                      "503": ref("responses", "Unavailable"), "500": ref("responses", "ServerError")},
    }}


POST = _one("Post", "One post: its text, its question or answers, its formulas and related threads")
FORMULA = _one("Formula", "One stored formula: its posts and its SLT / OPT")

SIGNAL_ERRORS = {
    "400": _error("invalid field, or a body that is not a JSON object"),
    "413": _error("the body is larger than the server reads"),
    "429": _error("too many signals; try again in a minute"),
    "503": ref("responses", "Unavailable"), "500": ref("responses", "ServerError"),
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
            "application/json": {"schema": ref("schemas", "FeedbackInput")},
            "application/x-www-form-urlencoded": {"schema": ref("schemas", "FeedbackInput")},
        }},
        "responses": {"201": _json("stored: a click, or a first judgment", ref("schemas", "Feedback")),
                      "200": _json("a judgment replaced, or taken back", ref("schemas", "Feedback")),
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
            "application/json": {"schema": ref("schemas", "LooksInput")},
            "application/x-www-form-urlencoded": {"schema": ref("schemas", "LooksInput")},
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
        "responses": {"200": _json("the LaTeX read", object_of({"latex": STRING})), "414": LONG_URL,
                      "400": _error("missing or invalid q"),
                      "503": ref("responses", "Unavailable"), "500": ref("responses", "ServerError")},
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
                      "503": ref("responses", "Unavailable"), "500": ref("responses", "ServerError")},
    },
}


RESPONSES = {
    "Unavailable": {
        "description": "too busy (code `overloaded`), the data it needs locked by other work (code `busy`), or the "
                       "database or broker unreachable (code `unavailable`)",
        "headers": {"Retry-After": {"description": "seconds to wait before retrying", "required": True,
                                    "schema": {"type": "integer", "minimum": 1}}},
        "content": {"application/json": {"schema": ref("schemas", "Error")}}},
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
