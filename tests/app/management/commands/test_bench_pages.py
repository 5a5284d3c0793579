"""`manage.py bench_pages` refuses bad arguments before it makes its database, and prints a row a post and page."""
import pytest
from django.core.management import CommandError, call_command

from searchapp.management.commands.bench_pages import table


def test_no_repeat_and_a_negative_burst_are_refused():
    for arguments in (["--repeat", "0"], ["--parallel", "-1"]):
        with pytest.raises(CommandError, match="^--repeat must be at least 1 and --parallel at least 0$"):
            call_command("bench_pages", *arguments)


def test_the_table_shows_a_burst_only_when_there_was_one():
    timed = {"p50_ms": 12, "max_ms": 30, "statuses": {"200": 5}}
    lines = table([{"kind": "verb", "page": "formula", "sequential": timed},
                   {"kind": "verb", "page": "post", "sequential": timed, "parallel": timed,
                    "ordinary_search_meanwhile": timed}]).splitlines()
    assert lines[1].split() == ["verb", "formula", "12", "30", "200×5", "-", "-"]
    assert lines[2].split() == ["verb", "post", *["12", "30", "200×5"] * 3]
