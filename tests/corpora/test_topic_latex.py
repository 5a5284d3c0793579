import pytest

from corpora.tolerant import Problem
from corpora.topic_latex import parse_topic_latex, read_topic_latex


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


@pytest.mark.parametrize("name, topics, example", [
    pytest.param("topics.arqmath-2020-task2.txt", 85, ("B.3", "10^{-10}"), id="2020"),
    pytest.param("topics.arqmath-2021-task2.txt", 100, ("B.201", "n\\times n"), id="2021"),
    pytest.param("topics.arqmath-2022-task2-official.txt", 100, ("B.301", "\\|A\\|_2=\\sqrt{\\rho(A^TA)}"), id="2022"),
])
def test_real_topic_files(shared_data, name, topics, example):
    read = read_topic_latex(shared_data / "arqmath" / "topics" / name)
    assert (len(read.value), read.problems) == (topics, [])
    assert read.value[example[0]] == example[1]
