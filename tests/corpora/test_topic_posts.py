import json

import pytest

from corpora.tolerant import Problem
from corpora.topic_posts import (
    TopicContext,
    TopicFormula,
    math_containers,
    parse_topic_contexts,
    parse_topic_queries,
    parse_topic_xml,
    read_topic_queries,
    read_topic_xml,
)

TOPIC = """<?xml version="1.0" ?>
<Topics>
   <Topic number="B.1">
      <Formula_Id>q_2</Formula_Id>
      <Latex>f(x)= \\frac{1}{x}</Latex>
      <Title>Range of &lt;span class=&quot;math-container&quot; id=&quot;q_1&quot;&gt;$f$&lt;/span&gt;</Title>
      <Question>&lt;p&gt;If &lt;span class=&quot;math-container&quot; id=&quot;q_2&quot;&gt;$$f(x)= \\frac{1}{x}$$&lt;/span&gt; and &lt;span class=&quot;math-container&quot; id=&quot;q_3&quot;&gt;$0&lt;t&lt;1$&lt;/span&gt;&lt;/p&gt;</Question>
      <Tags>functions,real-analysis</Tags>
   </Topic>
"""
SECOND = """   <Topic number="A.2">
      <Title>No formulas</Title>
      <Question>&lt;p&gt;Why?&lt;/p&gt;</Question>
      <Tags>logic</Tags>
   </Topic>
</Topics>
"""


def test_task2_topic_fields():
    read = parse_topic_xml(TOPIC + SECOND)
    assert read.problems == [] and list(read.value) == ["B.1", "A.2"]
    topic = read.value["B.1"]
    assert (topic.formula_id, topic.latex, topic.tags) == ("q_2", "f(x)= \\frac{1}{x}", ("functions", "real-analysis"))
    assert topic.title.startswith('Range of <span class="math-container" id="q_1">')
    assert topic.formulas == (TopicFormula("q_1", "f"), TopicFormula("q_2", "f(x)= \\frac{1}{x}"),
                              TopicFormula("q_3", "0<t<1"))


def test_task1_topic_has_no_query_formula():
    topic = parse_topic_xml(TOPIC + SECOND).value["A.2"]
    assert (topic.formula_id, topic.latex, topic.formulas, topic.tags) == (None, None, (), ("logic",))


def test_file_cut_off_mid_topic_keeps_whole_topics_and_reports_the_break():
    read = parse_topic_xml(TOPIC + SECOND[:60])
    assert list(read.value) == ["B.1"]
    assert len(read.problems) == 1 and read.problems[0].reason.startswith("malformed XML")


def test_queries_are_the_latex_of_task2_topics():
    read = parse_topic_queries(TOPIC + SECOND)
    assert (read.value, read.problems) == ({"B.1": "f(x)= \\frac{1}{x}"}, [])


def test_queries_report_a_broken_file_but_not_the_posts():
    text = TOPIC.replace("id=&quot;q_3&quot;", "") + SECOND + '<Topic number="B.9"><Latex>x</Latex></Topic>\n'
    read = parse_topic_queries(text)
    assert list(read.value) == ["B.1"]
    assert [p.reason for p in read.problems] == ["malformed XML: junk after document element"]


@pytest.mark.parametrize("html, formulas, reasons", [
    pytest.param('<span class="math-container" id="q_7">$a&lt;b$</span>', [TopicFormula("q_7", "a<b")], [],
                 id="entities-decoded"),
    pytest.param('<span class="math-container">$x$</span>', [], ["math-container without an id: 'x'"], id="no-id"),
    pytest.param('<span class="other" id="s">$x$</span>', [], [], id="not-math"),
    pytest.param('<span class="math-container">$<span class="math-container" id="q_5"> x<y </span> $</span>',
                 [TopicFormula("q_5", "x<y")], [], id="nested-wrapper"),
])
def test_math_containers(html, formulas, reasons):
    assert math_containers(html) == (formulas, reasons)


def test_topic_contexts():
    entries = [{"context": "If [imath]x[/imath]", "formulaID": "q_1", "qid": "B.1"}, {"qid": "B.2"},
               {"context": "again", "formulaID": "q_9", "qid": "B.1"}]
    read = parse_topic_contexts(json.dumps(entries))
    assert read.value == {"B.1": TopicContext("B.1", "q_1", "If [imath]x[/imath]")}
    assert read.problems == [Problem(2, "entry needs the keys qid, formulaID and context"),
                             Problem(3, "duplicate topic B.1")]


def test_broken_json_is_a_problem_not_an_exception():
    read = parse_topic_contexts('[{"qid": "B.1",\n')
    assert read.value == {} and read.problems[0].reason.startswith("malformed JSON")


@pytest.mark.parametrize("year, topics, formulas, id_less", [
    pytest.param("2020", 85, 922, 0, id="2020"),
    pytest.param("2021", 100, 829, 14, id="2021"),
    pytest.param("2022", 100, 1050, 9, id="2022"),
])
def test_real_topic_xml(shared_data, year, topics, formulas, id_less):
    name = f"topics.arqmath-{year}-task2-origin.xml"
    read = read_topic_xml(shared_data / "arqmath" / "topics" / name)
    assert len(read.value) == topics
    assert sum(len(t.formulas) for t in read.value.values()) == formulas
    assert [p.reason.split(": ")[1] for p in read.problems] == ["math-container without an id"] * id_less
    assert all(t.latex for t in read.value.values())


def test_real_queries(shared_data):
    read = read_topic_queries(shared_data / "arqmath" / "topics" / "topics.arqmath-2021-task2-origin.xml")
    assert (len(read.value), read.problems) == (100, [])
