"""`manage.py bench_clicks` refuses bad arguments before it makes its database (the loop itself:
benchmarks/test_learning_loop.py)."""
import pytest
from django.core.management import CommandError, call_command


@pytest.mark.parametrize("options, message", [
    pytest.param(["--sessions", "0"], "^--sessions must be at least 1$", id="no-sessions"),
    pytest.param(["--eta", "-0.5"], "^--eta must be 0 or more$", id="negative-eta"),
    pytest.param(["--data", "/nowhere"], "^not found: /nowhere$", id="no-data"),
])
def test_bad_arguments_are_named(options, message, tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("")
    with pytest.raises(CommandError, match=message):
        call_command("bench_clicks", "--data", str(tmp_path), "--qrels", str(qrels), *options)
