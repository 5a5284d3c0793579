import pytest

from corpora.qrels import parse_qrels, read_qrels
from corpora.tolerant import Problem


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


@pytest.mark.parametrize("name, topics, rows", [
    pytest.param("qrels.arqmath-2020-task2-dev-visual_ids.txt", 29, 4138, id="2020-dev-float-grades"),
    pytest.param("qrels.arqmath-2021-task2-official.txt", 58, 8108, id="2021-no-final-newline"),
    pytest.param("qrels.arqmath-2022-task2-official.v3.txt", 76, 11538, id="2022"),
])
def test_real_qrels(shared_data, name, topics, rows):
    read = read_qrels(shared_data / "arqmath" / "qrels" / name)
    assert read.problems == []
    assert (len(read.value), sum(map(len, read.value.values()))) == (topics, rows)
