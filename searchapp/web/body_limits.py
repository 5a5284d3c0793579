"""Request bodies refused by their declared size before anything reads them.

Django's CSRF middleware reads a form before any view runs: a 300 MB multipart POST to `/feedback` or to the admin
login was spooled to a temporary file in full before its 403. This middleware comes first and answers 413 from
`Content-Length` alone. A chunked body declares no length: Django reads none of it (its input stream is as long as
`Content-Length`, 0 when absent), and the proxy in `docker/nginx.conf` refuses it at the same limits.
"""
from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from searchapp.web.error_views import error_response

UPLOAD_PATH = "/admin/searchapp/indexjob/upload/"
FORM_OVERHEAD_BYTES = 64 * 1024
"""Multipart headers and the other fields of the upload form, on top of the file itself."""
SMALL_BODY_BYTES = 64 * 1024
"""Feedback, the login form, an API call: a 5,000-character query written in the longest UTF-8 fits many times."""
ADMIN_FORM_BYTES = 1024 * 1024
"""An admin form or a bulk action on a few thousand selected rows."""


def body_limit(path: str) -> int:
    """The largest body `path` takes, in bytes (the same table is written for nginx in docker/nginx.conf)."""
    if path == UPLOAD_PATH:
        return settings.MATHSEARCH_MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES
    if path.startswith("/admin/") and not path.startswith("/admin/login/"):
        return ADMIN_FORM_BYTES
    return SMALL_BODY_BYTES


class BodyLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return error_response(request, 400, "the Content-Length header is not a number")
        limit = body_limit(request.path)
        if declared > limit:
            return error_response(request, 413, f"the request body has {declared:,} bytes; {request.path} takes at "
                                                f"most {limit:,}")
        return self.get_response(request)
