"""Validated request parameters, shared by the JSON API and the search page: a bad value is a 400 that names it.

Each reads a mapping of names to strings: a GET's query string, a page's POSTed form, or a JSON body whose values
`searchapp.web.api_bodies` has checked for type and written as strings, so every way in meets one validation."""
from __future__ import annotations

from collections.abc import Mapping

from mathparse import NOTATIONS
from searchapp.errors import ApiError, check_text, shown
from searchapp.models import CORPUS_NAME_CHARS, MAX_K, Corpus
from searchapp.search.query import MAX_QUERY_CHARS
from searchapp.search.query_keys import detect_notation
from searchapp.search.questions import DEFAULT_MODE, MODES
from searchapp.search.ranking import DEFAULT_ORDER, ORDERS
from searchapp.web.api_bodies import Field

# The parameters' bounds, with MAX_K and MAX_QUERY_CHARS: the OpenAPI schema (searchapp.web.openapi) reads them here.
DEFAULT_K = 10
MAX_OFFSET = 10_000
QUERY_NOTATIONS = ("auto", *NOTATIONS)
SEARCH_FIELDS: dict[str, Field] = {"q": str, "notation": QUERY_NOTATIONS, "k": int, "offset": int, "fusion": ORDERS,
                                   "corpus": str, "context": str}
QUESTION_FIELDS: dict[str, Field] = {"q": str, "k": int, "offset": int, "mode": MODES, "corpus": str, "tag": str}
"""The parameters of each search and their types in a JSON body (POST /api/search, POST /api/posts): a tuple is a
string among these (a query string's empty value means the default, a JSON body leaves the field out instead)."""


def int_param(params: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiError("invalid_parameter", f"{name} must be an integer, got {shown(raw)}") from None
    if not low <= value <= high:
        raise ApiError("invalid_parameter", f"{name} must be between {low} and {high}, got {shown(value)}")
    return value


def choice_param(params: Mapping[str, str], name: str, choices: tuple[str, ...], default: str) -> str:
    value = params.get(name) or default
    if value not in choices:
        raise ApiError("invalid_parameter", f"{name} must be one of {', '.join(choices)}, got {shown(value)}")
    return value


def query_param(params: Mapping[str, str]) -> str:
    """The query, stripped; its length is counted as sent, as the OpenAPI schema's maxLength counts it."""
    raw = params.get("q", "")
    if len(raw) > MAX_QUERY_CHARS:
        raise ApiError("query_too_long", f"the query has {len(raw)} characters; the limit is {MAX_QUERY_CHARS}")
    query = raw.strip()
    if not query:
        raise ApiError("missing_query", "the query parameter q is required")
    return check_text("q", query)


def corpus_param(params: Mapping[str, str]) -> str | None:
    """A corpus name to search in, or None for all; a name no searchable corpus has is a 404 naming those there are,
    not an empty answer."""
    corpus = check_text("corpus", params.get("corpus", ""))
    if len(corpus) > CORPUS_NAME_CHARS:
        raise ApiError("invalid_parameter", f"corpus names have at most {CORPUS_NAME_CHARS} characters, got {len(corpus)}")
    if corpus and (unknown := Corpus.objects.searchable().unknown(corpus)):
        raise ApiError("unknown_corpus", unknown, status=404)
    return corpus or None


def notation_param(params: Mapping[str, str], query: str, default: str) -> str:
    """The query's notation; `auto` (the search box's default) reads pasted MathML and Tangent SLT strings."""
    notation = choice_param(params, "notation", QUERY_NOTATIONS, default)
    return detect_notation(query) if notation == "auto" else notation


def search_params(params: Mapping[str, str], default_notation: str = "latex") -> dict:
    """The validated search options of a request: query text and notation, k, offset, fusion, corpus."""
    query = query_param(params)
    return {"text": query, "notation": notation_param(params, query, default_notation),
            **paging_params(params),
            "fusion": choice_param(params, "fusion", ORDERS, DEFAULT_ORDER), "corpus": corpus_param(params),
            "context": context_param(params)}


def context_param(params: Mapping[str, str]) -> str:
    """Words around the formula sought (SSEmb context); the text encoder reads at most its first 256 tokens."""
    context = check_text("context", params.get("context", ""))
    if len(context) > MAX_QUERY_CHARS:
        raise ApiError("invalid_parameter", f"context has {len(context)} characters; the limit is {MAX_QUERY_CHARS}")
    return context.strip()


MAX_TAG_CHARS = 100


def tag_param(params: Mapping[str, str]) -> str:
    """A tag to keep the posts of (`Post.objects.tagged`), or "" for all."""
    tag = check_text("tag", params.get("tag", "")).strip()
    if len(tag) > MAX_TAG_CHARS:
        raise ApiError("invalid_parameter", f"tags have at most {MAX_TAG_CHARS} characters, got {len(tag)}")
    return tag


def question_params(params: Mapping[str, str]) -> dict:
    """The validated options of a question search: the question, k, offset, mode, corpus, tag."""
    question = query_param(params)
    if not question.replace("$", "").strip():  # `$$`: an empty formula, and no words
        raise ApiError("missing_query", "the question has neither words nor formulas")
    return {"question": question, **paging_params(params),
            "mode": choice_param(params, "mode", MODES, DEFAULT_MODE), "corpus": corpus_param(params),
            "tag": tag_param(params)}


def paging_params(params: Mapping[str, str]) -> dict:
    """k and offset, as both searches take them."""
    return {"k": int_param(params, "k", DEFAULT_K, 1, MAX_K), "offset": int_param(params, "offset", 0, 0, MAX_OFFSET)}
