"""Celery tasks. Tasks take primary keys, re-fetch rows, and return quietly when a row is gone."""
from celery import shared_task
from django.db import connection


@shared_task(name="searchapp.ping")
def ping() -> dict:
    """Round trip through broker, worker and database: proves a worker can do real work."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        database = cursor.fetchone()[0]
    return {"pong": True, "database": database}
