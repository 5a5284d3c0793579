"""SQL helpers the search and indexing stages share: id lists as one array parameter, rows read in psycopg's binary
format, and rows written by binary COPY.

Django reads through the text protocol, which hex-encodes blobs (~10 ms more for 530 candidates' node matrices);
binary rows hold bytea as bytes.
"""
from __future__ import annotations

import psycopg
from django.db import connections
from django.db.models.expressions import RawSQL
from pgvector import HalfVector
from pgvector.psycopg.halfvec import register_halfvec_info
from psycopg.types import TypeInfo


def id_array(ids) -> RawSQL:
    """`pk__in` operand as one array parameter: Django would send hundreds of separate parameters
    (measured: ~3 ms more per query for 700 candidates). Sent as one text literal: psycopg adapts a list element by
    element (1.8 ms for 2,000 ids, against 0.3 ms joined), which cost a question search 4 ms of its ~190 (10 k posts,
    198 questions, alternating)."""
    return RawSQL("SELECT unnest(%s::bigint[])", ["{" + ",".join(map(str, ids)) + "}"])


def binary_rows(values) -> list[tuple]:
    """The rows of a `values_list` queryset, read from the database the router chose for it (a search replica)."""
    sql, params = values.query.sql_with_params()
    connection = connections[values.db]
    connection.ensure_connection()
    binary = psycopg.Cursor(connection.connection)  # server-side binding: Django's client cursors can't read binary
    binary.format = psycopg.pq.Format.BINARY
    # Django's own wrapper, so query logging and execute wrappers see this read like any other
    # the stubs type the argument as Django's wrapper; both wrap a DB-API cursor
    with (connection.make_debug_cursor(binary) if connection.queries_logged  # type: ignore[arg-type]
          else connection.make_cursor(binary)) as cursor:  # type: ignore[arg-type]
        cursor.execute(sql, params)
        return cursor.fetchall()


def copy_binary(cursor, statement: str, types: list[str], rows) -> None:
    """COPY `rows` in the binary format (`statement` is `COPY table (columns) FROM STDIN`, `types` their Postgres
    types). A halfvec goes as its 2-byte floats: 4 µs for a 384-d vector, where Django formats it as text in 230 µs
    and Postgres parses that again; indexing writes one for every formula occurrence."""
    raw = cursor.cursor  # Django's wrapper holds the psycopg cursor
    if "halfvec" in types:
        register_halfvec_info(raw, _halfvec_type(raw.connection))
    with raw.copy(f"{statement} (FORMAT BINARY)") as copy:
        copy.set_types(types)
        for row in rows:
            copy.write_row(row)


def _halfvec_type(connection: psycopg.Connection) -> TypeInfo:
    """pgvector's halfvec type as this connection's server knows it (its oid), looked up once a connection."""
    info = getattr(connection, "_halfvec_type", None)
    if info is None:
        info = TypeInfo.fetch(connection, "halfvec")
        if info is None:
            raise RuntimeError("the database has no halfvec type: the vector extension is missing (run migrate)")
        connection._halfvec_type = info  # type: ignore[attr-defined]
    return info


def halfvec(vector) -> HalfVector | None:
    """A vector as COPY's binary halfvec, or None."""
    return None if vector is None else HalfVector(vector)
