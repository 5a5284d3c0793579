"""Busy or cut off from a server, the site answers 503 with Retry-After (JSON on the API) instead of 500s."""
import json
import threading

import psycopg
import pytest
import redis
from django.db import OperationalError, connection, transaction

from searchapp.web import overload
from tests.conftest import database_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def busy(monkeypatch, settings):
    """Every search slot taken, and no time to wait for one."""
    taken = threading.BoundedSemaphore(1)
    taken.acquire()
    monkeypatch.setattr(overload, "_slots", taken)
    settings.MATHSEARCH_QUEUE_SECONDS = 0


def test_a_search_without_a_free_slot_is_refused_with_retry_after(busy, client):
    response = client.get("/api/search", {"q": "x^2"})
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert response.json()["code"] == "overloaded"
    page = client.get("/", {"q": "x^2"})
    assert page.status_code == 503 and "Please retry" in page.content.decode()
    posted = client.post("/api/posts", {"q": "why $x^2$?"}, content_type="application/json")
    assert (posted.status_code, posted.json()["code"]) == (503, "overloaded")
    assert client.post("/questions", {"q": "why $x^2$?"}).status_code == 503  # a long question's POSTed form


def test_a_search_that_finds_every_place_to_wait_taken_is_refused_at_once(monkeypatch, settings, client):
    """After a burst the backlog's requests must cost nothing: no waiting when others already wait."""
    taken, full = _CountedSemaphore(), _CountedSemaphore()
    taken.acquire(blocking=False)
    full.acquire(blocking=False)
    monkeypatch.setattr(overload, "_slots", taken)
    monkeypatch.setattr(overload, "_waiting", full)
    settings.MATHSEARCH_QUEUE_SECONDS = 60
    for path, params in (("/api/search", {"q": "x^2"}), ("/api/posts", {"q": "why $x^2$?"}), ("/questions", {"q": "why?"})):
        assert client.get(path, params).status_code == 503
    assert taken.waits == full.waits == []  # every attempt was `blocking=False`: nothing waited


class _CountedSemaphore:
    """A taken one-slot semaphore that records each attempt that would have waited (its timeout)."""

    def __init__(self) -> None:
        self._semaphore = threading.BoundedSemaphore(1)
        self.waits: list[float | None] = []

    def acquire(self, blocking: bool = True, timeout: float | None = None) -> bool:
        if blocking:
            self.waits.append(timeout)
        return self._semaphore.acquire(blocking=False)

    def release(self) -> None:
        self._semaphore.release()


def test_requests_that_do_not_search_pass_while_searches_wait(busy, client):
    assert client.get("/").status_code == 200
    assert client.get("/api/schema").status_code == 200


def test_a_slot_is_given_back_after_each_search(client, index_file):
    index_file()
    for _ in range(3 * overload.settings.MATHSEARCH_SEARCH_SLOTS):
        assert client.get("/api/search", {"q": "x^2"}).status_code == 200


@pytest.mark.parametrize("error, message", [
    (OperationalError("connection refused"), "database is unreachable"),
    (redis.exceptions.ConnectionError("refused"), "broker is unreachable"),
])
def test_a_lost_server_is_a_503_that_names_it(client, monkeypatch, error, message):
    def fail(*args, **kwargs):
        raise error
    monkeypatch.setattr("searchapp.web.api.served_search", fail)
    response = client.get("/api/search", {"q": "x^2"})
    assert response.status_code == 503 and response["Retry-After"]
    assert response.json() == {"code": "unavailable", "message": f"the {message}; retry in a few seconds"}


@pytest.fixture
def held_lock():
    """An advisory lock another session holds, as an indexing job's transaction holds its rows."""
    session = psycopg.connect(database_url(connection.settings_dict), autocommit=True)
    session.execute("SELECT pg_advisory_lock(7, 7)")
    yield
    session.close()


@pytest.mark.parametrize("timeout", ["lock_timeout", "statement_timeout"])
def test_a_lock_wait_is_a_busy_503_not_an_unreachable_database(rf, held_lock, timeout):
    """Postgres answered: it is busy with conflicting work. A deleted corpus once answered "unreachable" 4 times."""
    with pytest.raises(OperationalError) as raised, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT set_config(%s, '10ms', true)", [timeout])
        cursor.execute("SELECT pg_advisory_xact_lock(7, 7)")
    response = overload.OverloadMiddleware(lambda request: None).process_exception(rf.get("/api/search"), raised.value)
    assert response.status_code == 503 and response["Retry-After"]
    assert json.loads(response.content) == {"code": "busy", "message": "what this needs is busy with other work (an "
                                                                      "indexing job, say); try again in a moment"}
