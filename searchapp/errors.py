"""Errors of the web layer: a stable `code`, an HTTP status, a message and, for parse errors, a position."""
from __future__ import annotations

import reprlib

from django.http import JsonResponse
from psycopg.errors import DeadlockDetected, LockNotAvailable, QueryCanceled

_SHOWN = reprlib.Repr()
_SHOWN.maxstring = _SHOWN.maxother = _SHOWN.maxlong = 60


class ApiError(Exception):
    status = 400

    def __init__(self, code: str, message: str, pos: int | None = None, status: int | None = None):
        super().__init__(message)
        self.code, self.message, self.pos = code, message, pos
        if status is not None:
            self.status = status

    def response(self) -> JsonResponse:
        body: dict[str, str | int] = {"code": self.code, "message": self.message}
        if self.pos is not None:
            body["pos"] = self.pos
        return JsonResponse(body, status=self.status)


QUERY_KINDS = ("too_large", "only_variables")


def parse_error(error, notation: str) -> ApiError:
    """An `mathparse.ParseError` as a 400 answer that names the notation and points at the position.

    A query too large to search (kind `too_large`), or of query variables alone (`only_variables`), is one in every
    notation, so its code is `query_too_large` (like `query_too_long`) or `query_only_variables`.
    """
    code = f"query_{error.kind}" if error.kind in QUERY_KINDS else f"{notation}_{error.kind}"
    return ApiError(code, error.message, pos=error.pos)


def shown(value) -> str:
    """`value` as an error message quotes it: a 2 MB string or a list nested 900 deep is cut short."""
    return _SHOWN.repr(value)


def check_text(name: str, text: str) -> str:
    """`text`, unless Postgres could not hold it (a NUL) or UTF-8 could not carry it (a lone surrogate, which a JSON
    body can spell `\\ud800`): then a 400 naming `name` and the character's place."""
    nul = text.find("\x00")
    if nul >= 0:
        raise ApiError("invalid_parameter", f"{name} must not contain a NUL character (at {nul})")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ApiError("invalid_parameter", f"{name} must not contain a lone surrogate (at {error.start})") from None
    return text


LOCK_WAITS = (LockNotAvailable, QueryCanceled, DeadlockDetected)
"""What Postgres raises when a statement gives up on a lock (lock_timeout, a deadlock) or on time (statement_timeout)."""


def is_lock_wait(error: BaseException) -> bool:
    """Whether `error` is a lock wait or a timeout: the database is busy with conflicting work (an indexing job's
    transaction, say), not unreachable. Django raises it as an OperationalError whose cause is psycopg's error."""
    return isinstance(error, LOCK_WAITS) or isinstance(error.__cause__, LOCK_WAITS)
