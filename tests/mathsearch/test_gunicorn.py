"""mathsearch/gunicorn.conf.py against a real gunicorn: requests as long as the documented limits allow reach the app
and get its answers (JSON under /api/), never gunicorn's own HTML error pages."""
import json
import socket
from urllib.parse import quote, urlencode

import pytest

from tests.app.factories import index_formulas
from tests.conftest import gunicorn_site

MAX_REQUEST_LINE_BYTES = 256 * 1024  # mathsearch/gunicorn.conf.py

pytestmark = pytest.mark.django_db(transaction=True)

QUERY = r"a^2+b^2=c^2 \text{" + "∀" * 4981 + "}"
"""5,000 characters, the most the box and the API take; three UTF-8 bytes each, 44,866 bytes URL-encoded."""
WIDEST_QUERY = r"a^2+b^2=c^2 \text{" + "𝑥" * 4981 + "}"
"""The same with four-byte characters: 59,809 bytes URL-encoded."""


def exchange(port: int, head: bytes, timeout: float = 60.0) -> tuple[int, dict, bytes]:
    """Send a request head as given, byte for byte; the answer's status, headers (lower-case names) and body."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        conn.sendall(head)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    head_part, _, body = answer.partition(b"\r\n\r\n")
    lines = head_part.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), {name.lower(): value for name, value in headers.items()}, body


def get(port: int, target: str, extra: str = "") -> tuple[int, dict, bytes]:
    return exchange(port, f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}Connection: close\r\n\r\n".encode())


@pytest.fixture(scope="module")
def gunicorn(service_env):
    """gunicorn as `make run` starts it (one process) over the test database, started once for the module."""
    with gunicorn_site(service_env) as port:
        yield port


def test_queries_at_their_limits_in_the_url_are_searched(gunicorn, tmp_path):
    """Up to 120 KB of request line, more than most proxies pass on (the pages and the API also POST): each answered
    by the app, JSON on the API."""
    index_formulas(tmp_path / "formulas.txt")  # committed: gunicorn reads them
    for query in (QUERY, WIDEST_QUERY):
        target = "/api/search?" + urlencode({"q": query, "k": 3})
        assert len(target) > 44_000
        status, headers, body = get(gunicorn, target)
        assert (status, headers["content-type"]) == (200, "application/json")
        assert json.loads(body)["results"][0]["latex"] == "a^2 + b^2 = c^2"
        page = get(gunicorn, "/?" + urlencode({"q": query}))
        assert page[0] == 200 and b'class="results"' in page[2]
    target = "/api/search?" + urlencode({"q": WIDEST_QUERY, "context": "𝑥" * 5000})
    status, headers, body = get(gunicorn, target)
    assert (status, headers["content-type"], len(target) > 119_000) == (200, "application/json", True)
    # Chromium sends a page's URL as the Referer of its requests (up to 4 KB; other clients whole)
    referer = "http://127.0.0.1/?" + urlencode({"q": QUERY})
    status, headers, _ = get(gunicorn, "/api/schema", extra=f"Referer: {referer}\r\n")
    assert (status, headers["content-type"]) == (200, "application/json")


def test_past_the_limits_a_query_is_the_app_s_json_400_and_a_request_line_refused_as_it_arrives(gunicorn):
    """gunicorn's `limit_request_line = 0` read any line whole (16 MB: 89 s of CPU); the raised clamp refuses it."""
    status, headers, body = get(gunicorn, "/api/search?q=" + quote("∀" * 5001))
    assert (status, headers["content-type"]) == (400, "application/json")
    assert json.loads(body)["code"] == "query_too_long"
    widest = len("GET /?" + urlencode({"q": WIDEST_QUERY, "context": "𝑥" * 5000, "corpus": "𝑥" * 100, "k": 1000,
                                       "offset": 10000, "notation": "mathml", "fusion": "weighted", "page": 50}))
    assert widest < MAX_REQUEST_LINE_BYTES
    status, _, body = get(gunicorn, "/api/search?q=" + "x" * MAX_REQUEST_LINE_BYTES)
    assert (status, b"URI Too Long" in body) == (414, True)
