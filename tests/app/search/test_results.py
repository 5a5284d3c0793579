"""What a search returns holds data; its one derived value is a hit's formula id, read from the row it carries."""
from searchapp.models import Formula
from searchapp.search.results import SearchHit


def test_a_hit_is_named_by_the_primary_key_of_its_formula_row():
    hit = SearchHit(formula=Formula(pk=42, latex="x"), score=0.5, parts={"slg": 0.5}, rank=1)
    assert hit.formula_id == 42
    assert (hit.alignment, hit.signals, hit.also, hit.bindings, hit.feedback) == ({}, [], [], None, None)
