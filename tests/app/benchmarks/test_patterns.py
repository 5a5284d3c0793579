"""`bench_patterns` on a small indexed corpus, in this process: it is scored whole, so every holder is found."""
import json
from io import StringIO

import pytest
from django.core.management import call_command

from tests.app.factories import PATTERN_FORMULAS as FORMULAS

pytestmark = pytest.mark.django_db



def test_a_pattern_search_finds_every_holder_of_a_small_corpus_and_is_timed_beside_typing_a_letter(index_file):
    index_file(FORMULAS, corpus="small")
    out = StringIO()
    call_command("bench_patterns", corpus="small", queries=6, json=True, stdout=out)
    report = json.loads(out.getvalue())
    assert (report["corpus"], report["formulas"], report["queries"]) == ("small", 10, 6)
    assert report["variable"]["holders_in_top10"] == [1.0, 1.0, 1.0]
    assert report["letter"]["holders_in_top10"][0] <= 1.0
    assert all(0 < report[mode]["p50_ms"] <= report[mode]["p95_ms"] for mode in ("variable", "letter"))
    assert report["p50_ratio_variable_to_letter"] > 0
    assert report["pattern_hits"] >= 6 and report["pattern_hits_truly_matching"] == 1.0
