"""Answers for a site that is too busy or has lost a server: 503 with Retry-After, JSON on the API, instead of
a collapse into 500s.

Searches are CPU-bound (parse, embed, score), so each web process admits at most MATHSEARCH_SEARCH_SLOTS at once;
a search that waits longer than MATHSEARCH_QUEUE_SECONDS for a slot is refused rather than left to make every
other request slower, and one that finds MATHSEARCH_SEARCH_QUEUE others already waiting is refused at once: after
a burst, the requests left in the listen backlog (their clients long gone) then cost nothing, where each used to
wait its seconds or run its search, and normal service took 10–14 s to come back.

When Postgres or the broker is unreachable, requests that need them get a 503 naming it, and the next request
after it returns works again (Django reconnects: CONN_HEALTH_CHECKS). A statement that gave up waiting for a lock
(an indexing job's rows) gets a 503 of its own: the database is busy, not unreachable.
"""
from __future__ import annotations

import threading

import redis
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse

from searchapp.errors import ApiError, is_lock_wait
from searchapp.web.error_views import is_api

RETRY_AFTER_SECONDS = 5
UNAVAILABLE = {OperationalError: "the database is unreachable", InterfaceError: "the database is unreachable",
               redis.exceptions.ConnectionError: "the broker is unreachable",
               redis.exceptions.TimeoutError: "the broker is not answering"}

_slots = threading.BoundedSemaphore(settings.MATHSEARCH_SEARCH_SLOTS)
_waiting = threading.BoundedSemaphore(settings.MATHSEARCH_SEARCH_QUEUE)
"""Places to wait for a slot in."""


class OverloadMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not _is_search(request):
            return self.get_response(request)
        if not _admitted():
            return unavailable(request, "overloaded", "the server is busy with other searches; retry in a few seconds")
        try:
            return self.get_response(request)
        finally:
            _slots.release()

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_lock_wait(exception):  # an OperationalError too, but Postgres answered
            return unavailable(request, "busy", "what this needs is busy with other work (an indexing job, say); "
                                                "try again in a moment")
        for kind, message in UNAVAILABLE.items():
            if isinstance(exception, kind):
                return unavailable(request, "unavailable", f"{message}; retry in a few seconds")
        return None


def _admitted() -> bool:
    """A search slot at once, or after waiting in one of the free places to wait, for at most the queue seconds."""
    if _slots.acquire(blocking=False):
        return True
    if not _waiting.acquire(blocking=False):
        return False
    try:
        return _slots.acquire(timeout=settings.MATHSEARCH_QUEUE_SECONDS)
    finally:
        _waiting.release()


def unavailable(request: HttpRequest, code: str, message: str) -> HttpResponse:
    if is_api(request):
        response: HttpResponse = ApiError(code, message, status=503).response()
    else:
        response = HttpResponse(f"<!doctype html><title>MathSearch is busy</title><h1>Please retry</h1><p>{message}.</p>",
                                status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _is_search(request: HttpRequest) -> bool:
    """Requests that run a search: the API's two, the results pages, a formula page (its nearest neighbours)."""
    return (request.path in ("/api/search", "/api/posts") or request.path.startswith("/formula/")
            or (request.path in ("/", "/questions") and (request.method == "POST" or bool(request.GET.get("q")))))

