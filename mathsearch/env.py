"""Typed helpers that read settings from the environment and fail loudly with a one-line reason."""
from __future__ import annotations

import math
import os
from urllib.parse import parse_qs, unquote, urlsplit, urlunsplit

from django.core.exceptions import ImproperlyConfigured

POSTGRES_SCHEMES = {"postgres", "postgresql", "pgsql"}
REDIS_SCHEMES = {"redis", "rediss"}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off", ""}:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use 1/0, true/false, yes/no)")


def env_int(name: str, default: int) -> int:
    return _env_number(name, default, int, "an integer")


def env_float(name: str, default: float) -> float:
    number = _env_number(name, default, float, "a number")
    if not math.isfinite(number):  # float() reads "nan" and "inf"; no setting means either
        raise ImproperlyConfigured(f"{name}={os.environ[name]!r} is not a finite number")
    return number


def _env_number(name: str, default, parse, kind: str):
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        return parse(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not {kind}") from None


def database_config(url: str, variable: str = "DATABASE_URL") -> dict:
    """Django DATABASES entry from `postgres://user:password@host:port/name` (or `?host=/socket/dir`); errors name
    the environment `variable` the URL came from.

    A relative socket directory (`?host=var/pgdata`, the embedded server's, from the repository root) is made
    absolute against the working directory: libpq reads only an absolute path as a directory and took
    `var/pgdata` for a host name it could not resolve. The port may be given as `?port=` too, as libpq reads it (a
    socket's port names its file: the embedded replica's is `.s.PGSQL.5433`)."""
    parts = urlsplit(url)
    if parts.scheme not in POSTGRES_SCHEMES:
        raise ImproperlyConfigured(
            f"{variable} must start with postgres:// or postgresql://, got {_redacted(url)!r}"
        )
    name = unquote(parts.path.lstrip("/"))
    if not name or "/" in name:
        raise ImproperlyConfigured(f"{variable} names no database: {_redacted(url)!r}")
    query = parse_qs(parts.query)
    try:
        port = parts.port or int(query.get("port", ["0"])[0])
        if not 0 <= port <= 65535:
            raise ValueError
    except ValueError:
        raise ImproperlyConfigured(f"{variable} has an invalid port: {_redacted(url)!r}") from None
    socket_host = query.get("host", [""])[0]
    if "/" in socket_host:
        socket_host = os.path.abspath(socket_host)
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": socket_host or parts.hostname or "",
        "PORT": str(port or ""),
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": {"connect_timeout": 5},
    }


def replica_config(url: str, variable: str = "DATABASE_REPLICA_URL") -> dict:
    """The DATABASES entry of a search replica: libpq's least connect timeout, so that a replica that does not answer
    is passed over without holding a search for long."""
    config = database_config(url, variable)
    config["OPTIONS"]["connect_timeout"] = 2
    return config


def redis_url(url: str) -> str:
    """The broker URL, checked: `redis://[:password@]host[:port][/db]` (Valkey speaks the same protocol)."""
    parts = urlsplit(url)
    if parts.scheme not in REDIS_SCHEMES:
        raise ImproperlyConfigured(f"REDIS_URL must start with redis:// or rediss://, got {_redacted(url)!r}")
    try:
        _ = parts.port  # urllib validates the port only when it is read
    except ValueError:
        raise ImproperlyConfigured(f"REDIS_URL has an invalid port: {_redacted(url)!r}") from None
    if not parts.hostname:
        raise ImproperlyConfigured(f"REDIS_URL names no host: {_redacted(url)!r}")
    database = parts.path.lstrip("/")
    if database and not database.isdigit():
        raise ImproperlyConfigured(f"REDIS_URL database must be a number, got {database!r}")
    return url


def cache_url(broker_url: str) -> str:
    """The broker's server with the next database number: the cache's `clear()` flushes its whole database,
    which must never hold Celery's queues."""
    return shifted_database(broker_url, 1)


def shifted_database(url: str, by: int) -> str:
    """The same Redis-protocol server, `by` database numbers further on."""
    parts = urlsplit(url)
    database = int(parts.path.lstrip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{database + by}"))


def _redacted(url: str) -> str:
    """The URL with any password replaced, so error messages never leak secrets."""
    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@", 1)
    return url
