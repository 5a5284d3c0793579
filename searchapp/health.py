"""Health of the parts the site depends on: the database, its pgvector extension, the broker, and the search
replica when one is configured."""
from __future__ import annotations

import redis
from django.conf import settings
from django.db import connection, connections
from django.db.utils import Error as DatabaseError

from searchapp.search.database import REPLICA


def check_database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True, "ok"
    except DatabaseError as error:
        return False, _first_line(error)


def check_vector() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            row = cursor.fetchone()
    except DatabaseError as error:
        return False, _first_line(error)
    return (True, f"pgvector {row[0]}") if row else (False, "the vector extension is not installed")


def check_broker() -> tuple[bool, str]:
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.ping()
        return True, "ok"
    except redis.RedisError as error:
        return False, _first_line(error)
    finally:
        client.close()


def check_replica() -> tuple[bool, str]:
    """The search replica answers; its detail says whether it is a standby and how far its replay is behind (a
    lagging replica serves an index without the formulas indexed since)."""
    try:
        with connections[REPLICA].cursor() as cursor:
            cursor.execute("SELECT pg_is_in_recovery(), extract(epoch FROM now() - pg_last_xact_replay_timestamp())")
            standby, lag = cursor.fetchone()
    except DatabaseError as error:
        return False, _first_line(error)
    if not standby:
        return True, "answers, but is not a standby: searches read a primary"
    return True, "standby, nothing replayed yet" if lag is None else f"standby, last transaction replayed {float(lag):.1f} s ago"


class BrokerUnavailable(Exception):
    """The broker does not answer, so no task can be queued; the message is one line that names it."""


def require_broker() -> None:
    """Raise BrokerUnavailable unless the broker answers now.

    Sending a task to a broker that is down blocks in kombu's retries for ~20 s and then fails with a long
    traceback, after the job it was for is already saved; callers ask first and save nothing.
    """
    ok, detail = check_broker()
    if not ok:
        raise BrokerUnavailable(f"the broker is unreachable ({detail}); start it and try again")


CHECKS = {"database": check_database, "vector": check_vector, "broker": check_broker}


def health_report() -> dict:
    """`{"status": "ok"|"down", "checks": {name: {"ok": bool, "detail": str}}, "down": [names]}`."""
    checks = {name: dict(zip(("ok", "detail"), check())) for name, check in _checks().items()}
    down = [name for name, result in checks.items() if not result["ok"]]
    return {"status": "down" if down else "ok", "checks": checks, "down": down}


def _checks() -> dict:
    return CHECKS | {"replica": check_replica} if REPLICA in settings.DATABASES else CHECKS


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
