from pathlib import Path

import pytest

from corpora.runs import format_run, parse_run, write_run
from corpora.tolerant import Problem


def test_run_is_ordered_by_score_not_by_the_rank_column():
    read = parse_run("q1 Q0 d1 1 0.5 tag\nq1 Q0 d2 2 0.9 tag\nq1 Q0 d3 3 0.5 tag\nq1 Q0 d4 x 0.1 tag\n")
    assert read.value == {"q1": [("d2", 0.9), ("d3", 0.5), ("d1", 0.5)]}
    assert read.problems == [Problem(4, "rank 'x' or score '0.1' is not a number")]


def test_run_round_trips_through_a_file(tmp_path: Path):
    run = {"B.1": [("9", 0.1 + 0.2), ("3", 1e-12)], "B.2": [("5", -1.0)]}
    write_run(tmp_path / "run.txt", run, "tfidf")
    assert parse_run((tmp_path / "run.txt").read_text(encoding="utf-8")).value == run
    assert format_run(run, "tfidf").splitlines()[0] == "B.1 Q0 9 1 0.30000000000000004 tfidf"


def test_run_tag_must_be_one_word():
    with pytest.raises(ValueError, match="one non-empty word"):
        format_run({}, "my run")
