"""Which database a search reads: a streaming read replica when DATABASE_REPLICA_URL names one, else the primary.

Query load is reads of the index (formulas, posting lists, centroids, posts and occurrences), so replicas scale it
(docs/scaling.md). Writes, and reads of everything else (users, sessions, feedback, jobs), stay on the primary, and
so does every read made inside a transaction on the primary: indexing reads back rows it has just written, which a
replica does not have yet. Workers are not given the replica at all.
"""
from __future__ import annotations

from django.conf import settings
from django.db import connections

REPLICA = "replica"
INDEX_MODELS = frozenset({"formula", "postinglist", "pendingposting", "slgcentroid", "opgcentroid", "post", "occurrence"})


def search_database() -> str:
    return REPLICA if REPLICA in settings.DATABASES else "default"


def search_connection():
    """The connection a search's raw SQL runs on (its ORM reads are routed by `SearchReadsRouter`)."""
    return connections[search_database()]


class SearchReadsRouter:
    def db_for_read(self, model, **hints) -> str | None:
        if connections["default"].in_atomic_block:
            return "default"
        if model._meta.app_label == "searchapp" and model._meta.model_name in INDEX_MODELS:
            return search_database()
        return None

    def allow_migrate(self, db: str, app_label: str, **hints) -> bool:
        return db != REPLICA  # a replica follows the primary's schema by streaming
