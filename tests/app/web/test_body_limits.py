"""Oversized bodies are refused from Content-Length, before the CSRF middleware or a view reads any of them; the
upload's limit is only for a staff session that may upload."""
import select
import socket
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import Permission, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from searchapp.models import IndexJob
from searchapp.web.body_limits import ADMIN_FORM_BYTES, SMALL_BODY_BYTES, UPLOAD_PATH, body_limit
from tests.app.factories import staff_user

DECLARED = 300 * 1024 * 1024
UPLOAD_SIZE = 199 * 1024 * 1024


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


def _session_cookie(user) -> str:
    """The Cookie header of a browser logged in as `user` (none for an anonymous one), with a self-set CSRF token."""
    cookie = "csrftoken=" + "a" * 32
    if user is None:
        return cookie
    client = Client()
    client.force_login(user)
    return f"{cookie}; sessionid={client.cookies['sessionid'].value}"


def _body_sent_before_the_answer(url: str, cookie: str) -> tuple[str, int]:
    """Stream a 199 MB multipart body (one file) after its headers until the server answers: the status line, and
    the body's bytes sent by then. The kernel buffers hold a few hundred KB at most (the small send buffer, and a
    receive window that only grows as the server reads), so anything more is what the server read before answering."""
    address = urlsplit(url)
    with socket.create_connection((address.hostname, address.port), timeout=20) as connection:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 64 * 1024)
        connection.sendall((f"POST {UPLOAD_PATH} HTTP/1.1\r\nHost: {address.hostname}\r\n"
                            f"Content-Length: {UPLOAD_SIZE}\r\nContent-Type: multipart/form-data; boundary=zz\r\n"
                            f"Cookie: {cookie}\r\n\r\n").encode())
        part = b'--zz\r\nContent-Disposition: form-data; name="file"; filename="big.tex"\r\n\r\n'
        connection.sendall(part)
        chunk, sent = b"x" * (64 * 1024), len(part)
        while sent < UPLOAD_SIZE:
            answered, writable, _ = select.select([connection], [connection], [], 20)
            if answered or not writable:
                break
            sent += connection.send(chunk[:UPLOAD_SIZE - sent])
        return connection.recv(4096).decode("latin-1").split("\r\n")[0], sent


@pytest.mark.parametrize("make_user", [
    pytest.param(lambda: None, id="anonymous"),
    pytest.param(lambda: User.objects.create_user("bea", password="pw"), id="not-staff"),
    pytest.param(lambda: staff_user("cy"), id="staff-who-may-not-upload"),
])
def test_a_199_mb_upload_from_anyone_but_an_uploader_is_refused_unread(live_server, settings, make_user):
    """The 403 of CSRF or of the admin came only after the whole body was spooled; now 413 comes from the headers and
    the session, with the body's first bytes (those the kernel took) still unread."""
    settings.MATHSEARCH_MAX_UPLOAD_BYTES = 200 * 1024 * 1024
    status, sent = _body_sent_before_the_answer(live_server.url, _session_cookie(make_user()))
    assert sent < 1024 * 1024, f"{sent:,} bytes of the body went out before the answer, {status}"
    assert status.split()[1] == "413", status


def test_a_staff_member_who_may_upload_sends_more_than_the_small_limit(client, db, settings, tmp_path):
    """The 413 is the small limit's for everyone else only: staff with `add_indexjob` (not superuser) reach the form."""
    settings.MATHSEARCH_UPLOAD_DIR = tmp_path / "uploads"
    uploader = staff_user("dee")
    uploader.user_permissions.add(Permission.objects.get(codename="add_indexjob"))
    client.force_login(uploader)
    file = SimpleUploadedFile("big.txt", b"x^{2} + y^{2}\n" * 20_000, content_type="text/plain")
    assert file.size > 4 * SMALL_BODY_BYTES
    response = client.post(UPLOAD_PATH, {"file": file, "format": "latex", "corpus": "big"})
    assert response.status_code == 302, response.content.decode()[:500]
    assert IndexJob.objects.get().corpus.name == "big"


def test_the_uploads_refusal_says_who_may_send_more(client, db):
    response = client.post(UPLOAD_PATH, {"file": SimpleUploadedFile("f.txt", b"x" * 2 * SMALL_BODY_BYTES)})
    assert response.status_code == 413
    assert f"takes at most {SMALL_BODY_BYTES:,} from anyone but a staff member who may upload" in \
        response.content.decode()
