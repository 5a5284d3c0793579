"""Errors of the web layer: a stable `code`, an HTTP status, a message and, for parse errors, a position."""
from __future__ import annotations

from django.http import JsonResponse


class ApiError(Exception):
    status = 400

    def __init__(self, code: str, message: str, pos: int | None = None, status: int | None = None):
        super().__init__(message)
        self.code, self.message, self.pos = code, message, pos
        if status is not None:
            self.status = status

    def response(self) -> JsonResponse:
        body = {"code": self.code, "message": self.message}
        if self.pos is not None:
            body["pos"] = self.pos
        return JsonResponse(body, status=self.status)


def parse_error(error, notation: str) -> ApiError:
    """An `ml.formula.ParseError` as a 400 answer that names the notation and points at the position."""
    return ApiError(f"{notation}_{error.kind}", error.message, pos=error.pos)
