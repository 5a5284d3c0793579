"""`manage.py bench_search` refuses bad arguments before it makes its database (a real run:
benchmarks/test_search_speed.py)."""
import pytest
from django.core.management import CommandError, call_command


@pytest.mark.parametrize("options, message", [
    pytest.param(["--formulas", "99"], "^--formulas must be at least 100$", id="too-few-formulas"),
    pytest.param(["--formulas", "100", "--overlap-sample", "0"], "^--overlap-sample must be at least 1$", id="overlap"),
    pytest.param(["--formulas", "100", "--queries", "0"], "^--queries must be at least 1$", id="no-queries"),
    pytest.param(["--formulas", "100", "--data", "/nowhere"], "^data folder not found: /nowhere$", id="no-data"),
])
def test_bad_arguments_are_named(options, message):
    with pytest.raises(CommandError, match=message):
        call_command("bench_search", *options)
