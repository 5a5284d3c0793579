"""Django's error handlers (wired in mathsearch.urls): JSON {code, message} under /api/, the site's page elsewhere.

Django's own handlers answer an API client with HTML, and a body past DATA_UPLOAD_MAX_MEMORY_SIZE (which Django
raises as a SuspiciousOperation, wherever the body is first read: a view or the CSRF middleware) with a 400.
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse
from django.template import loader

from searchapp.errors import ApiError

ERRORS = {
    400: ("bad_request", "Bad request", "the request could not be read"),
    403: ("forbidden", "Forbidden", "you may not do this"),
    404: ("not_found", "Not found", "there is nothing at this address"),
    413: ("request_too_large", "Request too large", "the request is larger than this site reads"),
    500: ("server_error", "Server error", "something went wrong on our side; it has been logged"),
}
"""status → (API code, page title, message)."""


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def error_response(request: HttpRequest, status: int, message: str = "") -> HttpResponse:
    code, title, default = ERRORS[status]
    if is_api(request):
        return ApiError(code, message or default, status=status).response()
    # Rendered without the request, so no context processor (a session read) can fail while answering a failure.
    text = message or default
    page = loader.render_to_string("error.html", {"title": title, "message": f"{text[0].upper()}{text[1:]}."})
    return HttpResponse(page, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if isinstance(exception, RequestDataTooBig):
        return error_response(request, 413, f"the request body is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes")
    if isinstance(exception, TooManyFieldsSent):
        return error_response(request, 413, f"the request has more than {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} parameters")
    return error_response(request, 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_response(request, 403)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_response(request, 404, f"no API route {request.path}; /api/schema lists them" if is_api(request) else "")


def server_error(request: HttpRequest) -> HttpResponse:
    return error_response(request, 500)
