"""`manage.py bench_questions` refuses bad arguments before it makes its database (the benchmark itself:
benchmarks/test_question_speed.py)."""
import pytest
from django.core.management import CommandError, call_command


@pytest.mark.parametrize("options, message", [
    pytest.param(["--posts", "0"], "^--posts must be at least 1$", id="no-posts"),
    pytest.param(["--posts", "10", "--overlap-sample", "-1"], "^--overlap-sample must be at least 0$", id="overlap"),
    pytest.param(["--posts", "10"], "^folder not found: .*threads", id="no-pages"),
])
def test_bad_arguments_are_named(options, message, tmp_path):
    with pytest.raises(CommandError, match=message):
        call_command("bench_questions", "--data", str(tmp_path), *options)
