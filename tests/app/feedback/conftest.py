"""Fixtures of the feedback tests: rate limits start afresh, and a formula to judge."""
import pytest
from django.core.cache import cache

from searchapp.models import Formula


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def formula(index_file):
    index_file()
    return Formula.objects.get(latex=r"e^{i\pi} + 1 = 0")
