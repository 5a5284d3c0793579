"""The test suite's settings: the site's, with Celery's queues and the cache two broker databases further on.

A site served from the same checkout (`make run`) shares the embedded Valkey server with the tests; on the same
database its worker took the tests' indexing tasks, found no such job in its own database, and the test waited
in vain. Processes the tests start are given this broker URL and the site's settings (`tests/conftest.py`).
"""
from mathsearch.env import cache_url, shifted_database
from mathsearch.settings import *  # noqa: F403
from mathsearch.settings import CACHES, REDIS_URL

TEST_DATABASES_AFTER = 2
"""The site uses the broker's database (queues) and the next (cache); the tests the two after those."""

REDIS_URL = shifted_database(REDIS_URL, TEST_DATABASES_AFTER)
CELERY_BROKER_URL = CELERY_RESULT_BACKEND = REDIS_URL
CACHES = {"default": {**CACHES["default"], "LOCATION": cache_url(REDIS_URL)}}
