from pathlib import Path

import pytest

from ml.evaluation.benchmark_files import (
    Problem,
    VisualIdRecord,
    format_run,
    parse_qrels,
    parse_run,
    parse_topic_latex,
    parse_visual_ids,
    read_qrels,
    read_run,
    read_topic_latex,
    read_visual_ids,
    write_run,
)


@pytest.mark.parametrize("text, expected, problems", [
    pytest.param("B.1\t0\t594\t3.0\r\nB.1\t0\t7\t0.0\r\n", {"B.1": {"594": 3, "7": 0}}, [], id="tab-crlf-float"),
    pytest.param("q1 0 d1 2\nq2 0 d2 1", {"q1": {"d1": 2}, "q2": {"d2": 1}}, [], id="space-no-final-newline"),
    pytest.param("q1 0 d1 2\n\nq1 0 d2 x\n", {"q1": {"d1": 2}}, [Problem(3, "relevance 'x' is not a number")],
                 id="bad-grade"),
    pytest.param("q1 0 d1\nq1 0 d2 1.5\n", {},
                 [Problem(1, "expected 4 fields (topic iteration doc relevance), found 3"),
                  Problem(2, "relevance '1.5' is not a whole grade")], id="bad-lines"),
    pytest.param("q1 0 d1 2\nq1 0 d1 0\n", {"q1": {"d1": 2}}, [Problem(2, "duplicate entry for q1 d1")],
                 id="duplicate-keeps-first"),
])
def test_parse_qrels(text, expected, problems):
    read = parse_qrels(text)
    assert (read.value, read.problems) == (expected, problems)


def test_run_is_ordered_by_score_not_by_the_rank_column():
    read = parse_run("q1 Q0 d1 1 0.5 tag\nq1 Q0 d2 2 0.9 tag\nq1 Q0 d3 3 0.5 tag\nq1 Q0 d4 x 0.1 tag\n")
    assert read.value == {"q1": [("d2", 0.9), ("d3", 0.5), ("d1", 0.5)]}
    assert read.problems == [Problem(4, "rank 'x' or score '0.1' is not a number")]


def test_run_round_trips_through_a_file(tmp_path: Path):
    run = {"B.1": [("9", 0.1 + 0.2), ("3", 1e-12)], "B.2": [("5", -1.0)]}
    write_run(tmp_path / "run.txt", run, "tfidf")
    assert read_run(tmp_path / "run.txt").value == run
    assert format_run(run, "tfidf").splitlines()[0] == "B.1 Q0 9 1 0.30000000000000004 tfidf"


def test_run_tag_must_be_one_word():
    with pytest.raises(ValueError, match="one non-empty word"):
        format_run({}, "my run")


@pytest.mark.parametrize("text, expected, problems", [
    pytest.param("B.1 \t f(x)= \\frac{x}{2}\nB.2 \t 10^{-10}\n", {"B.1": "f(x)= \\frac{x}{2}", "B.2": "10^{-10}"}, [],
                 id="2020-padded-tab"),
    pytest.param("B.201\tn\\times n\r\nB.202\t[E:F] < \\infty; \\tag 2", {"B.201": "n\\times n",
                                                                       "B.202": "[E:F] < \\infty; \\tag 2"}, [],
                 id="2021-plain-tab"),
    pytest.param("B.3 10^{-10}\nB.4\t\n", {}, [Problem(1, "expected `topic <TAB> latex`"),
                                           Problem(2, "expected `topic <TAB> latex`")], id="no-tab-or-no-latex"),
])
def test_parse_topic_latex(text, expected, problems):
    read = parse_topic_latex(text)
    assert (read.value, read.problems) == (expected, problems)


def test_parse_visual_ids():
    text = "3\t[V!x,a[N!2]]\tNone\r\n14\tNone\tx^2\n15\tNone\tNone\n16\tx\n"
    read = parse_visual_ids(text)
    assert read.value == {"3": VisualIdRecord("3", "[V!x,a[N!2]]", None), "14": VisualIdRecord("14", None, "x^2")}
    assert [p.line_no for p in read.problems] == [3, 4]


@pytest.mark.parametrize("name, topics, example", [
    pytest.param("topics.arqmath-2020-task2.txt", 85, ("B.3", "10^{-10}"), id="2020"),
    pytest.param("topics.arqmath-2021-task2.txt", 100, ("B.201", "n\\times n"), id="2021"),
    pytest.param("topics.arqmath-2022-task2-official.txt", 100, ("B.301", "\\|A\\|_2=\\sqrt{\\rho(A^TA)}"), id="2022"),
])
def test_real_topic_files(shared_data, name, topics, example):
    read = read_topic_latex(shared_data / "arqmath" / "topics" / name)
    assert (len(read.value), read.problems) == (topics, [])
    assert read.value[example[0]] == example[1]


@pytest.mark.parametrize("name, topics, rows", [
    pytest.param("qrels.arqmath-2020-task2-dev-visual_ids.txt", 29, 4138, id="2020-dev-float-grades"),
    pytest.param("qrels.arqmath-2021-task2-official.txt", 58, 8108, id="2021-no-final-newline"),
    pytest.param("qrels.arqmath-2022-task2-official.v3.txt", 76, 11538, id="2022"),
])
def test_real_qrels(shared_data, name, topics, rows):
    read = read_qrels(shared_data / "arqmath" / "qrels" / name)
    assert read.problems == []
    assert (len(read.value), sum(map(len, read.value.values()))) == (topics, rows)


def test_real_visual_id_file(shared_data):
    read = read_visual_ids(shared_data / "arqmath" / "arqmath1-task2-judged-formulas" / "visual_id_file.tsv")
    records = read.value.values()
    assert read.problems == [] and len(records) == 9926
    assert sum(r.latex is not None for r in records) == 8483
    assert all(not (r.latex or r.slt).endswith("\r") for r in records)
