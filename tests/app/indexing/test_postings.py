"""Posting lists: chunks append pending postings that search reads at once; a job's end merges and shrinks them."""
import numpy as np
import pytest
from django.db import connection

from searchapp.indexing import jobs
from searchapp.models import Formula, PendingPosting, PostingList
from searchapp.vectors import ID_DTYPE
from tests.app.factories import FORMULAS


def _posted_ids() -> set[int]:
    return {int(i) for blob in PostingList.objects.values_list("formula_ids", flat=True)
            for i in np.frombuffer(blob, dtype=ID_DTYPE)}


@pytest.mark.django_db
def test_formulas_are_found_before_their_job_merges_its_postings(index_file, monkeypatch):
    monkeypatch.setattr(jobs, "merge_postings", lambda corpus_id: None)  # a job still running
    index_file()
    assert PendingPosting.objects.exists() and not PostingList.objects.exists()
    # a shortlist of 2 < 7 formulas: the first stage reads the posting lists instead of scoring every formula
    hits = Formula.objects.search(r"e^{i\pi} + 1 = 0", k=3, corpus="test", shortlist_size=2).hits
    assert hits[0].formula.latex == r"e^{i\pi} + 1 = 0"


@pytest.mark.django_db(transaction=True)
def test_a_second_job_on_the_corpus_merges_into_its_lists_and_leaves_the_pending_table_empty(index_file):
    index_file(FORMULAS[:4], name="first.txt")
    first = _posted_ids()
    index_file(FORMULAS, name="second.txt")  # lines 1-4 again (the same posts), then new ones
    keys = list(PostingList.objects.values_list("representation", "centroid"))
    assert len(keys) == len(set(keys))  # one list per centroid
    assert first < _posted_ids() == set(Formula.objects.values_list("pk", flat=True))
    assert not PendingPosting.objects.exists()
    with connection.cursor() as cursor:  # VACUUM gave the emptied table's pages back
        cursor.execute("SELECT pg_relation_size('searchapp_pendingposting')")
        assert cursor.fetchone()[0] == 0

