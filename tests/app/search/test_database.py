"""A search reads the index from the replica when one is configured and serving, from start to end; nothing else
reads the replica. (Searches on a real standby, stopped and started again: `test_replica.py`.)"""
import pytest
from django.db import transaction
from django.test import override_settings

from searchapp.models import Feedback, Formula, PostingList
from searchapp.search.database import SearchReadsRouter, reads_the_index, search_database
from searchapp.search.replica import close_monitor

router = SearchReadsRouter()


@reads_the_index
def _where_a_search_reads() -> tuple:
    """What a search's reads are routed to: its database, an index model's, a user's judgment's."""
    return search_database(), router.db_for_read(Formula), router.db_for_read(PostingList), router.db_for_read(Feedback)


@pytest.fixture
def primary_as_replica(settings):
    """A "replica" that is the primary again: it answers, and is no standby."""
    with override_settings(DATABASES={**settings.DATABASES, "replica": {**settings.DATABASES["default"]}}):
        yield
        close_monitor()


def test_without_a_replica_everything_reads_the_primary():
    assert _where_a_search_reads() == ("default", "default", "default", None)
    assert search_database() == "default" and router.db_for_read(Formula) is None


@pytest.mark.django_db(transaction=True)
def test_with_a_replica_searches_read_the_index_there_and_nothing_else_does(primary_as_replica):
    assert _where_a_search_reads() == ("replica", "replica", "replica", None)  # judgments: where they are written
    assert search_database() == "default" and router.db_for_read(Formula) is None  # a page's rows, indexing's reads
    assert not router.allow_migrate("replica", "searchapp") and router.allow_migrate("default", "searchapp")
    with transaction.atomic():  # a search inside a transaction on the primary reads what it wrote
        assert _where_a_search_reads()[:2] == ("default", "default")
