"""Searches read the index from the replica when one is configured; writes and everything else use the primary."""
import pytest
from django.db import transaction
from django.test import override_settings

from searchapp.models import Feedback, Formula, PostingList
from searchapp.search.database import SearchReadsRouter, search_database

router = SearchReadsRouter()


def _with_replica(settings_databases):
    return override_settings(DATABASES={**settings_databases, "replica": {**settings_databases["default"]}})


def test_without_a_replica_everything_reads_the_primary(settings):
    assert search_database() == "default"
    assert router.db_for_read(Formula) == "default" and router.db_for_read(Feedback) is None


@pytest.mark.django_db(transaction=True)
def test_with_a_replica_searches_read_the_index_there_and_nothing_else_does(settings):
    with _with_replica(settings.DATABASES):
        assert search_database() == "replica"
        assert router.db_for_read(Formula) == router.db_for_read(PostingList) == "replica"
        assert router.db_for_read(Feedback) is None  # users' judgments are read where they are written
        assert not router.allow_migrate("replica", "searchapp") and router.allow_migrate("default", "searchapp")
        with transaction.atomic():  # indexing reads back what it just wrote: only the primary has it
            assert router.db_for_read(Formula) == "default"
