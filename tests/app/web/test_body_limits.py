"""Oversized bodies are refused from Content-Length, before the CSRF middleware or a view reads any of them."""
import socket
from urllib.parse import urlsplit

import pytest

from searchapp.web.body_limits import ADMIN_FORM_BYTES, SMALL_BODY_BYTES, UPLOAD_PATH, body_limit

DECLARED = 300 * 1024 * 1024


@pytest.mark.parametrize("path, limit", [
    pytest.param("/feedback", SMALL_BODY_BYTES, id="feedback"),
    pytest.param("/api/feedback", SMALL_BODY_BYTES, id="api-feedback"),
    pytest.param("/admin/login/", SMALL_BODY_BYTES, id="login"),
    pytest.param("/admin/searchapp/corpus/1/change/", ADMIN_FORM_BYTES, id="admin-form"),
])
def test_each_path_has_its_limit(path, limit):
    assert body_limit(path) == limit


def test_the_upload_takes_the_configured_limit(settings):
    settings.MATHSEARCH_MAX_UPLOAD_BYTES = 5_000_000
    assert 5_000_000 < body_limit(UPLOAD_PATH) < 5_200_000


def _post_declaring(url: str, path: str, sent: int) -> tuple[str, int]:
    """POST a multipart body that declares DECLARED bytes but sends `sent`; the response's status line, and how
    many bytes went out before it came."""
    address = urlsplit(url)
    with socket.create_connection((address.hostname, address.port), timeout=20) as connection:
        connection.sendall((f"POST {path} HTTP/1.1\r\nHost: {address.hostname}\r\nContent-Length: {DECLARED}\r\n"
                            "Content-Type: multipart/form-data; boundary=zz\r\nCookie: csrftoken=" + "a" * 32 +
                            "\r\n\r\n").encode())
        connection.sendall(b"--zz\r\n" + b"x" * sent)
        return connection.recv(4096).decode("latin-1").split("\r\n")[0], sent


@pytest.mark.parametrize("path", ["/feedback", "/api/feedback", "/admin/login/", UPLOAD_PATH])
def test_a_300_mb_body_is_answered_413_after_its_headers(live_server, path, settings):
    settings.MATHSEARCH_MAX_UPLOAD_BYTES = 200 * 1024 * 1024
    status, sent = _post_declaring(live_server.url, path, 64 * 1024)
    assert status.split()[1] == "413", status  # answered with 300 MB still unsent


def test_the_refusal_says_what_the_limit_is(client):
    response = client.generic("POST", "/api/feedback", b"{}", content_type="application/json",
                              CONTENT_LENGTH=str(DECLARED))
    assert response.status_code == 413
    assert response.json()["message"] == (f"the request body has {DECLARED:,} bytes; /api/feedback takes "
                                          f"at most {SMALL_BODY_BYTES:,}")


def test_a_body_within_its_limit_goes_on_to_the_view(client, db):
    response = client.post("/api/feedback", b"{}", content_type="application/json")
    assert response.status_code != 413
