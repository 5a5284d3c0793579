"""Which database a search reads: a streaming read replica when one is configured and serving, else the primary.

Query load is searches, reads of the index (formulas, posting lists, centroids, posts and occurrences), so replicas
scale it (docs/scaling.md). A search reads one database from start to end (`reads_the_index`): the ids its first
stage finds are read back from the same one. Nothing else reads the replica: writes, reads of everything else (users,
sessions, feedback, jobs), a page's own rows, and indexing, whose threads read back rows the job has just written,
which a replica may not have yet. A search made inside a transaction on the primary reads the primary too.

While the replica is down or lags (`searchapp.search.replica`), searches read the primary; a search that the replica
fails (it stopped under the search, or cancelled its query to replay) runs again on the primary.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import ParamSpec, TypeVar

from django.conf import settings
from django.db import connections
from django.db.utils import InterfaceError, OperationalError

from mathsearch.env import replica_config
from searchapp.search.replica import close_monitor, replica_monitor

PRIMARY = "default"
REPLICA = "replica"
INDEX_MODELS = frozenset({"formula", "postinglist", "pendingposting", "slgcentroid", "opgcentroid", "post", "occurrence"})

_searching: ContextVar[str | None] = ContextVar("searching", default=None)
"""The database the search running in this thread reads."""

P = ParamSpec("P")
R = TypeVar("R")


def search_database() -> str:
    """The database the running search reads (outside a search, the primary)."""
    return _searching.get() or PRIMARY


def search_connection():
    """The connection a search's raw SQL runs on (its ORM reads are routed by `SearchReadsRouter`)."""
    return connections[search_database()]


def reads_the_index(search: Callable[P, R]) -> Callable[P, R]:
    """Run `search` on one database, and once more on the primary if it failed on the replica (a search within a
    search reads the outer one's database)."""
    @functools.wraps(search)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if _searching.get() is not None:
            return search(*args, **kwargs)
        database = _chosen()
        token = _searching.set(database)
        try:
            try:
                result = search(*args, **kwargs)
            except (OperationalError, InterfaceError) as error:
                if database != REPLICA:
                    raise
                connections[REPLICA].close()  # broken: the next search on the replica connects again
                replica_monitor().failed(error)
                database = PRIMARY
                _searching.set(database)
                result = search(*args, **kwargs)
        finally:
            _searching.reset(token)
        if REPLICA in settings.DATABASES:
            replica_monitor().count(database)
        return result
    return run


def _chosen() -> str:
    if REPLICA not in settings.DATABASES or connections[PRIMARY].in_atomic_block:
        return PRIMARY
    return REPLICA if replica_monitor().state().serving else PRIMARY


@contextmanager
def replica_at(url: str) -> Iterator[None]:
    """Searches of this process read the replica at `url` in the block: one started after the settings were read
    (`bench_replica`, the tests), as DATABASE_REPLICA_URL names one at start. Other threads close their own
    connections to it."""
    config = {**replica_config(url, "the replica's URL"), "TEST": {"MIRROR": PRIMARY}}  # as the settings name one
    settings.DATABASES[REPLICA] = connections.settings[REPLICA] = config  # one dict, unless a test overrode DATABASES
    connections.configure_settings(connections.settings)  # Django's defaults for the new entry
    try:
        yield
    finally:
        for connection in connections.all(initialized_only=True):
            if connection.alias == REPLICA:
                connection.close()
                del connections[REPLICA]
        settings.DATABASES.pop(REPLICA)
        connections.settings.pop(REPLICA, None)
        close_monitor()


class SearchReadsRouter:
    def db_for_read(self, model, **hints) -> str | None:
        if model._meta.app_label == "searchapp" and model._meta.model_name in INDEX_MODELS:
            return _searching.get()  # None, Django's default, outside a search
        return None

    def allow_migrate(self, db: str, app_label: str, **hints) -> bool:
        return db != REPLICA  # a replica follows the primary's schema by streaming
