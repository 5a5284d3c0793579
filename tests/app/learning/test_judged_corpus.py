"""The judged ARQMath corpus on a miniature of its files: judged formulas answer with their visual ids, distractors
with ids that cannot collide with one, and the judged topics are read through the real search path."""
from pathlib import Path

import pytest

from corpora.tolerant import MalformedFile
from searchapp.learning.judged_corpus import (
    CORPUS,
    JUDGED,
    QUERIES,
    TOPICS,
    _numeric_first,
    build_corpus,
    ensure_corpus,
    judged_candidates,
    read_inputs,
    visual_docs,
)
from searchapp.models import Formula, IndexJob

TOPIC_XML = """<?xml version="1.0" ?>
<Topics>
   <Topic number="B.1">
      <Formula_Id>q_1</Formula_Id>
      <Latex>x^2+1</Latex>
      <Title>A square plus one</Title>
      <Question>&lt;p&gt;Is &lt;span class=&quot;math-container&quot; id=&quot;q_1&quot;&gt;$x^2+1$&lt;/span&gt; \
ever a square, like &lt;span class=&quot;math-container&quot; id=&quot;q_2&quot;&gt;$z^{3}-z$&lt;/span&gt;?&lt;/p&gt;</Question>
      <Tags>algebra</Tags>
   </Topic>
</Topics>
"""


def arqmath_miniature(data):
    """Two judged visual ids (11 and 4 the same formula), one collection formula and one topic post."""
    (data / JUDGED).mkdir(parents=True)
    (data / JUDGED / "visual_id_file.tsv").write_text("11\tNone\tx^2+1\n4\tNone\tx^2+1\n7\tNone\t\\frac{a}{b}\n",
                                                     encoding="utf-8")
    (data / JUDGED / "formulas_slt_string.tsv").write_text("10\tp5\t[V!y]\n", encoding="utf-8")
    (data / TOPICS).mkdir(parents=True)
    (data / TOPICS / "topics.arqmath-2020-task2-origin.xml").write_text(TOPIC_XML, encoding="utf-8")
    (data / QUERIES).write_text("B.1\tx^2+1\nB.2\t\\frac{1}{\n", encoding="utf-8")
    qrels = data / "qrels.txt"
    qrels.write_text("B.1 0 11 3\nB.1 0 7 0\n", encoding="utf-8")
    return qrels


def test_judged_ids_come_first_in_number_order_then_other_names():
    assert sorted(["d3", "12", "9", "abc"], key=_numeric_first) == ["9", "12", "abc", "d3"]


def test_the_query_latex_and_judgments_are_read_whole_or_refused_naming_the_bad_line(tmp_path):
    qrels = arqmath_miniature(tmp_path)
    assert read_inputs(tmp_path, qrels) == ({"B.1": {"11": 3, "7": 0}}, {"B.1": "x^2+1", "B.2": "\\frac{1}{"})
    qrels.write_text("B.1 0 11 3\nB.1 0 7 maybe\n", encoding="utf-8")
    with pytest.raises(MalformedFile, match="line 2: relevance 'maybe' is not a number"):
        read_inputs(tmp_path, qrels)


@pytest.mark.django_db
def test_the_corpus_answers_with_visual_ids_and_distractors_with_d_ids(tmp_path):
    qrels = arqmath_miniature(tmp_path)
    said = []
    report = build_corpus(tmp_path, said.append)
    assert report["visual_id_file.tsv"]["records"] == 3 and report["visual_id_file.tsv"]["failed"] == 0
    assert len(said) == 3 and report["index_records_per_s"] > 0
    # the topic posts were written to a file of their own for their job, and it is gone with the job
    assert report["topic-posts.jsonl"]["failed"] == 0
    topic_job = IndexJob.objects.get(path__endswith="topic-posts.jsonl")
    assert topic_job.done == report["topic-posts.jsonl"]["records"] and not Path(topic_job.path).exists()
    formulas = {formula.latex: formula.pk for formula in Formula.objects.filter(corpus__name=CORPUS)}
    docs = visual_docs(list(formulas.values()))
    assert docs[formulas["x^2+1"]] == ["4", "11"]  # merged identical formulas stand for both, numbers in order
    assert docs[formulas["\\frac{a}{b}"]] == ["7"]
    distractor = formulas["z^{3}-z"]
    assert docs[distractor] == [f"d{distractor}"]

    ensure_corpus(tmp_path, said.append)  # already there: nothing indexed again
    assert len(said) == 3

    data, unreadable = judged_candidates(*read_inputs(tmp_path, qrels))
    assert unreadable == [] and list(data) == ["B.1"]  # only judged topics are read
    assert {"4", "11", "7", f"d{distractor}"} <= set(data["B.1"].docs)
