"""Request bodies refused by their declared size before anything reads them.

Django's CSRF middleware reads a form before any view runs: a 300 MB multipart POST to `/feedback` or to the admin
login was spooled to a temporary file in full before its 403. This middleware answers 413 from `Content-Length`
alone, before any view or `process_view` (CSRF's) runs. A chunked body declares no length: Django reads none of it
(its input stream is as long as `Content-Length`, 0 when absent), and the proxy in `docker/nginx.conf` refuses it at
the same limits.

The upload's limit is only for a session that may upload: an anonymous 199 MB POST with a self-set `csrftoken`
cookie was spooled in full before its 403. The session and its user come from the session cookie (database rows),
never from the body, so the middleware sits after Django's authentication middleware.
"""
from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AbstractUser, AnonymousUser
from django.http import HttpRequest, HttpResponse

from searchapp.web.error_views import error_response

UPLOAD_PATH = "/admin/searchapp/indexjob/upload/"
UPLOAD_PERMISSION = "searchapp.add_indexjob"
FORM_OVERHEAD_BYTES = 64 * 1024
"""Multipart headers and the other fields of the upload form, on top of the file itself."""
SMALL_BODY_BYTES = 64 * 1024
"""Feedback, the login form, an API call: a 5,000-character query written in the longest UTF-8 fits many times."""
ADMIN_FORM_BYTES = 1024 * 1024
"""An admin form or a bulk action on a few thousand selected rows."""


def body_limit(path: str) -> int:
    """The largest body `path` takes, in bytes: the table nginx, which knows no sessions, is written to
    (docker/nginx.conf). On the upload path it is the uploader's; `request_body_limit` gives anyone else less."""
    if path == UPLOAD_PATH:
        return settings.MATHSEARCH_MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES
    if path.startswith("/admin/") and not path.startswith("/admin/login/"):
        return ADMIN_FORM_BYTES
    return SMALL_BODY_BYTES


def may_upload(user: AbstractBaseUser | AnonymousUser) -> bool:
    """A staff member who may add index jobs (`has_perm` is False for an inactive user, superuser or not)."""
    return isinstance(user, AbstractUser) and user.is_staff and user.has_perm(UPLOAD_PERMISSION)


def request_body_limit(request: HttpRequest) -> int:
    """`body_limit` for this request's path and the user its session cookie names."""
    if request.path == UPLOAD_PATH and not may_upload(request.user):
        return SMALL_BODY_BYTES
    return body_limit(request.path)


class BodyLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return error_response(request, 400, "the Content-Length header is not a number")
        if declared <= SMALL_BODY_BYTES:  # every path takes this much: no session to look up
            return self.get_response(request)
        limit = request_body_limit(request)
        if declared > limit:
            whom = " from anyone but a staff member who may upload" if limit < body_limit(request.path) else ""
            return error_response(request, 413, f"the request body has {declared:,} bytes; {request.path} takes at "
                                                f"most {limit:,}{whom}")
        return self.get_response(request)
