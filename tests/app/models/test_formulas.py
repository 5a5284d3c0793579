"""The formulas' QuerySet verb: a whole formula search reads the database a pinned number of times."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from searchapp.models import Formula
from searchapp.search.query import parse_query
from searchapp.web.presenters import present

pytestmark = pytest.mark.django_db


def test_a_search_reads_the_database_a_pinned_number_of_times(index_file):
    """Parse and embed once, read the candidates' matrices once and the hits' rows once, their posts once."""
    index_file(corpus="big")
    query = parse_query(r"\sin^2 x + \cos^2 x = 1")
    with CaptureQueriesContext(connection) as captured:
        results = Formula.objects.search(query, k=5, shortlist_size=2, corpus="big")
        present(results)
    statements = [q["sql"].split()[0].upper() for q in captured.captured_queries]
    # ids-if-small, savepoint, corpus id, 2 × (ef_search, nearest centroids, posting lists), common sub-expressions,
    # structure matches, release, candidate matrices, the corpus's installed ranker, people's feedback on the query and
    # its logged pages, hit rows, hit posts, hit occurrence counts
    assert len(statements) == 19, statements
    assert 1 <= len(results.hits) == min(5, results.candidates)
