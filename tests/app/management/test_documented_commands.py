"""Every command in docs/scaling.md runs as written from the repository root (issue 35: its 1 M recipe stopped at
`?host=var/pgdata`). Each line of its code blocks is checked the way it would fail: a management command and its
arguments, a make target, a folder to copy, and a DATABASE_URL that must reach the embedded server. Variables
(`$PWD`) are expanded as a shell at the repository root would."""
import os
import re
import shlex
from pathlib import Path

import psycopg
import pytest
from django.core.management import get_commands, load_command_class
from django.db import connection

from mathsearch.env import database_config
from tests.conftest import REPO

DOCUMENTS = [REPO / "docs" / "scaling.md"]


def documented_commands(path: Path) -> list[str]:
    """The shell commands of a Markdown file's fenced blocks, one per `;`-separated part, comments dropped."""
    commands, inside = [], False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            inside = not inside
        elif inside:
            code = re.split(r"\s+#|^#", line, maxsplit=1)[0]
            commands.extend(part.strip() for part in code.split(";") if part.strip())
    return commands


COMMANDS = [(path.name, command) for path in DOCUMENTS for command in documented_commands(path)]


def test_the_documents_have_commands():
    assert len(COMMANDS) >= 5


@pytest.mark.parametrize("document, command", COMMANDS, ids=[command[:60] for _, command in COMMANDS])
def test_a_documented_command_runs_as_written(document, command, monkeypatch):
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("PWD", str(REPO))
    quoted = [part for part in re.findall(r"'[^']*'", command) if "$" in part]
    assert not quoted, f"{document}: a shell leaves $ in single quotes as it is: {quoted[0]}"
    words = [os.path.expandvars(word) for word in shlex.split(command)]
    if words[:2] == ["python", "manage.py"]:
        name, arguments = words[2], words[3:]
        assert name in get_commands(), f"{document}: no management command {name!r}"
        load_command_class(get_commands()[name], name).create_parser("manage.py", name).parse_args(arguments)
    elif words[0] == "make":
        assert re.search(rf"^{re.escape(words[1])}:", (REPO / "Makefile").read_text(), re.M), \
            f"{document}: no make target {words[1]!r}"
    elif words[:2] == ["cp", "-r"]:
        assert (REPO / words[2]).is_dir(), f"{document}: nothing to copy at {words[2]}"
    elif words[0] == "export":
        for name, value in (word.split("=", 1) for word in words[1:]):
            assert "$" not in value, f"{document}: {name} keeps an unknown variable: {value!r}"
            if name == "DATABASE_URL":
                _reaches_the_embedded_server(value)
    else:
        assert words[0] == "unset", f"{document}: this test does not know how to check {command!r}; teach it"


def _reaches_the_embedded_server(url: str) -> None:
    """The URL's socket directory, read from the repository root, is the running server's: a connection to it
    answers (to the test database, as the documented one is a benchmark's and may not exist yet)."""
    documented = database_config(url)
    ours = connection.settings_dict
    if not ours["HOST"].startswith("/"):
        pytest.skip("the tests run on an external Postgres over TCP; the documented socket is the embedded one's")
    assert documented["HOST"] == ours["HOST"]
    with psycopg.connect(host=documented["HOST"], dbname=ours["NAME"], user=documented["USER"],
                         password=documented["PASSWORD"]) as server:
        assert server.execute("SELECT 1").fetchone() == (1,)
