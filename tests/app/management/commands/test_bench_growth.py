import json

import pytest
from django.core.management import CommandError, call_command

from tests.app.benchmarks.test_growth import report


def written(tmp_path, reports: list[dict]) -> list[str]:
    paths = []
    for i, content in enumerate(reports):
        path = tmp_path / f"{i}.json"
        path.write_text(json.dumps(content))
        paths.append(str(path))
    return paths


def test_the_curve_is_printed_as_the_docs_table_and_as_json(tmp_path, capsys):
    paths = written(tmp_path, [report(n, n ** 0.2, n ** 0.3) for n in (100_000, 300_000, 1_000_000)])
    call_command("bench_growth", *paths)
    table = capsys.readouterr().out
    assert "| 1,000,000 |" in table and "15 shards" in table
    call_command("bench_growth", *paths, "--json", "--predict", "4000000", "--shard", "1000000")
    found = json.loads(capsys.readouterr().out)
    assert found["predicted"]["shards"] == 4 and found["fits"]["p95_ms"]["exponent"] == pytest.approx(0.3, abs=1e-3)


@pytest.mark.parametrize("content, message", [
    ("{", "not JSON"),
    (json.dumps({"formulas": 100}), "not a curve"),
])
def test_a_file_that_is_no_report_is_named_as_such(tmp_path, content, message):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    good = written(tmp_path, [report(n, 50, 90) for n in (100_000, 300_000)])
    with pytest.raises(CommandError, match=message):
        call_command("bench_growth", str(bad), *good)


def test_a_missing_report_and_a_shard_larger_than_the_prediction_are_refused(tmp_path):
    with pytest.raises(CommandError, match="cannot read"):
        call_command("bench_growth", str(tmp_path / "missing.json"))
    with pytest.raises(CommandError, match="--shard"):
        call_command("bench_growth", str(tmp_path / "missing.json"), "--shard", "0")
