"""Health of the parts the site depends on: the database, its pgvector extension, the broker, and the search
replica when one is configured."""
from __future__ import annotations

import redis
from django.conf import settings
from django.db import connection
from django.db.utils import Error as DatabaseError

from searchapp.search.database import PRIMARY, REPLICA
from searchapp.search.replica import first_line, replica_monitor


def check_database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True, "ok"
    except DatabaseError as error:
        return False, first_line(error)


def check_vector() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            row = cursor.fetchone()
    except DatabaseError as error:
        return False, first_line(error)
    return (True, f"pgvector {row[0]}") if row else (False, "the vector extension is not installed")


def check_broker() -> tuple[bool, str]:
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.ping()
        return True, "ok"
    except redis.RedisError as error:
        return False, first_line(error)
    finally:
        client.close()


def check_replica() -> dict:
    """The search replica as this process's searches see it (`searchapp.search.replica`): whether it answers, whether
    searches read it, its replay lag (a lagging replica serves an index without the formulas indexed since), and how
    many searches of this process each database served."""
    monitor = replica_monitor()
    state = monitor.settled_state()
    return {"ok": state.up, "detail": state.detail, "searches_read_it": state.serving,
            "lag_s": None if state.lag_s is None else round(state.lag_s, 3),
            "searches_served": {"replica": monitor.served[REPLICA], "primary": monitor.served[PRIMARY]}}


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
    """`{"status": "ok"|"down", "checks": {name: {"ok": bool, "detail": str, …}}, "down": [names]}`; the replica's
    check, when one is configured, says more (`check_replica`)."""
    checks = {name: dict(zip(("ok", "detail"), check())) for name, check in CHECKS.items()}
    if REPLICA in settings.DATABASES:
        checks["replica"] = check_replica()
    down = [name for name, result in checks.items() if not result["ok"]]
    return {"status": "down" if down else "ok", "checks": checks, "down": down}
