"""`manage.py export_qrels`: TREC qrels lines and the query map from feedback, only of a corpus that exists."""
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from searchapp.feedback.qrels import query_id
from searchapp.models import Feedback, Formula

pytestmark = pytest.mark.django_db


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
    from corpora.qrels import parse_qrels

    Feedback.objects.create(query="a b", formula=formula, kind="relevant", rank=1)
    out = tmp_path / "q.qrels"
    call_command("export_qrels", "--out", str(out), stdout=StringIO())
    read = parse_qrels(out.read_text())
    assert (read.value, read.problems) == ({query_id("a b"): {str(formula.pk): 2}}, [])
