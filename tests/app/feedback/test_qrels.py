"""Qrels from feedback: the latest judgment of each person counts, answers are not formula qrels, export_qrels writes TREC."""
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from searchapp.feedback.qrels import judgements, query_id
from searchapp.models import Feedback, Formula, Post

pytestmark = pytest.mark.django_db


def test_judgements_prefer_the_latest_explicit_judgement_over_clicks(formula):
    """Of two people's judgments of one formula, the later one counts."""
    other = Formula.objects.exclude(pk=formula.pk).first()
    for kind, target, person in [("click", formula, "a"), ("relevant", formula, "a"), ("not_relevant", formula, "b"),
                                 ("click", formula, "a"), ("click", other, "a")]:
        Feedback.objects.create(query="q", formula=target, kind=kind, rank=1, session_key=person)
    assert judgements() == {"q": {formula.pk: 0, other.pk: 1}}


def test_judgements_of_answers_are_not_formula_qrels(formula, tmp_path):
    from tests.app.factories import QUESTION_PAGES as PAGES
    from tests.app.factories import index_thread_pages

    index_thread_pages(tmp_path / "pages", PAGES)
    Feedback.objects.create(query="q", post=Post.objects.first(), kind="relevant", rank=1, session_key="a")
    Feedback.objects.create(query="q", formula=formula, kind="not_relevant", rank=1, session_key="a")
    assert judgements() == {"q": {formula.pk: 0}}


def test_export_qrels_writes_trec_lines_and_the_query_map(formula, tmp_path):
    other = Formula.objects.exclude(pk=formula.pk).first()
    Feedback.objects.create(query="e^{i\\pi}", formula=formula, kind="relevant", rank=1)
    Feedback.objects.create(query="e^{i\\pi}", formula=other, kind="click", rank=2)
    Feedback.objects.create(query="x^2", formula=other, kind="not_relevant", rank=1)
    out = tmp_path / "feedback.qrels"
    call_command("export_qrels", "--out", str(out), stdout=StringIO())
    lines = set(out.read_text().splitlines())
    q1, q2 = query_id("e^{i\\pi}"), query_id("x^2")
    assert lines == {f"{q1} 0 {formula.pk} 2", f"{q1} 0 {other.pk} 1", f"{q2} 0 {other.pk} 0"}
    side = dict(line.split("\t") for line in (tmp_path / "feedback.qrels.queries.tsv").read_text().splitlines())
    assert side == {q1: "e^{i\\pi}", q2: "x^2"}


def test_export_qrels_of_a_corpus_that_does_not_exist_is_an_error_not_an_empty_file(formula, tmp_path):
    out = tmp_path / "feedback.qrels"
    with pytest.raises(CommandError, match=f"no corpus named 'nope'; the corpora are {formula.corpus.name}"):
        call_command("export_qrels", "--out", str(out), "--corpus", "nope", stdout=StringIO())
    assert not out.exists()


def test_exported_qrels_parse_with_the_benchmark_reader(formula, tmp_path):
    from ml.data.qrels import parse_qrels

    Feedback.objects.create(query="a b", formula=formula, kind="relevant", rank=1)
    out = tmp_path / "q.qrels"
    call_command("export_qrels", "--out", str(out), stdout=StringIO())
    read = parse_qrels(out.read_text())
    assert (read.value, read.problems) == ({query_id("a b"): {str(formula.pk): 2}}, [])
