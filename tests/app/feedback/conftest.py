"""Fixtures of the feedback tests: rate limits start afresh."""
import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()
