"""`manage.py benchmark` checks its inputs before it makes its database (the benchmarks: tests/app/benchmarks/)."""
import pytest
from django.core.management import CommandError, call_command


@pytest.fixture
def qrels(tmp_path):
    path = tmp_path / "qrels.txt"
    path.write_text("")
    return path


def test_a_missing_input_is_named(tmp_path):
    with pytest.raises(CommandError, match=f"^not found: {tmp_path / 'none.txt'}$"):
        call_command("benchmark", "arqmath1", "--qrels", str(tmp_path / "none.txt"), "--data", str(tmp_path))


@pytest.mark.parametrize("name, options, message", [
    pytest.param("arqmath1", ["--qrels", "{q}", "{q}"], "^arqmath1 takes one --qrels file$", id="arqmath1-two-qrels"),
    pytest.param("arqmath-answers", ["--qrels", "{q}"], r"^arqmath-answers needs --topics", id="answers-no-topics"),
    pytest.param("arqmath-answers", ["--qrels", "{q}", "--topics", "{q}", "--formula-topics", "{q}"],
                 "^--formula-topics and --formula-qrels go together$", id="formula-topics-alone"),
])
def test_inputs_that_do_not_go_together_are_refused(tmp_path, qrels, name, options, message):
    with pytest.raises(CommandError, match=message):
        call_command("benchmark", name, *[option.format(q=qrels) for option in options], "--data", str(tmp_path))
