"""The test suite's settings: the site's, with Celery's queues and the cache two broker databases further on.

A site served from the same checkout (`make run`) shares the embedded Valkey server with the tests; on the same
database its worker took the tests' indexing tasks, found no such job in its own database, and the test waited
in vain. Processes the tests start are given this broker URL and the site's settings (`tests/conftest.py`).

`MATHSEARCH_TEST_SLOT=N` (1–6) runs a second suite beside the first on the same servers: its own test database
(`test_mathsearch_N`) and broker databases, so neither flushes nor takes the other's work. `make test` runs the app
tests in two processes (pytest-xdist), in slots N and N + 1.
"""
import os

from django.conf import global_settings

from mathsearch.env import cache_url, shifted_database
from mathsearch.settings import *  # noqa: F403
from mathsearch.settings import CACHES, DATABASES, REDIS_URL

TEST_DATABASES_AFTER = 2
"""The site uses the broker's database (queues) and the next (cache); the tests the two after those."""
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
"""gw0, gw1, … under `pytest -n N`: each process of one suite takes the slot after the one before it."""
TEST_SLOT = int(os.environ.get("MATHSEARCH_TEST_SLOT") or 0) + int(XDIST_WORKER.removeprefix("gw") or 0)
if not 0 <= TEST_SLOT <= 6:
    raise ValueError(f"test slot {TEST_SLOT} (MATHSEARCH_TEST_SLOT plus the pytest-xdist worker's number): use 0 to 6 "
                     "(the broker has 16 databases, two per suite)")

REDIS_URL = shifted_database(REDIS_URL, TEST_DATABASES_AFTER + 2 * TEST_SLOT)
CELERY_BROKER_URL = CELERY_RESULT_BACKEND = REDIS_URL
CACHES = {"default": {**CACHES["default"], "LOCATION": cache_url(REDIS_URL)}}
if TEST_SLOT:
    DATABASES["default"]["TEST"] = {"NAME": f"test_mathsearch_{TEST_SLOT}"}

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *global_settings.PASSWORD_HASHERS]
"""Django's advice for test suites: the site's PBKDF2 (a million rounds) made each staff account a test creates, and
each login, cost about half a second of CPU. The site's own hashers follow, so an account a child process made
(`make run`'s admin) is still checked here; no child checks an account made here."""
