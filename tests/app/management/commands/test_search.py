"""`manage.py search`: the API's results on the command line."""
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


def search(*args) -> str:
    out = StringIO()
    call_command("search", *args, stdout=out)
    return out.getvalue()


def test_the_results_are_the_apis_and_a_line_each(indexed, client):
    printed = json.loads(search("a^2 + b^2 = c^2", "--k", "3", "--fusion", "f1", "--json"))
    api = client.get("/api/search", {"q": "a^2 + b^2 = c^2", "k": 3, "fusion": "f1"}).json()
    assert [hit["id"] for hit in printed["results"]] == [hit["id"] for hit in api["results"]]
    lines = search("a^2 + b^2 = c^2", "--k", "2").splitlines()
    assert lines[0].startswith("2 of ") and lines[1].startswith("  1. ") and lines[1].endswith("a^2 + b^2 = c^2")


@pytest.mark.parametrize("args, message", [
    pytest.param(("x", "--k", "0"), "^--k must be between 1 and 1000$", id="k"),
    pytest.param(("x", "--corpus", "nope"), "^no corpus named 'nope'; the corpora are test$", id="unknown-corpus"),
    pytest.param((r"\frac{1}{",), r"^cannot read the query as latex \(unbalanced_braces at \d+\): ", id="unreadable"),
])
def test_bad_arguments_are_named(indexed, args, message):
    with pytest.raises(CommandError, match=message):
        search(*args)


def test_a_formula_too_long_to_search_whole_is_searched_by_its_parts_and_says_so(indexed):
    taylor = "e^{x} = " + " + ".join(rf"\frac{{x^{{{k}}}}}{{{k}!}}" for k in range(2, 97))  # 572 symbols
    lines = search(taylor, "--k", "3").splitlines()
    assert lines[0] == "Your formula is long (572 symbols); its 3 largest parts were searched"
    assert lines[1].startswith("3 of ") and lines[2].startswith("  1. ")
    printed = json.loads(search(taylor, "--k", "3", "--json"))
    assert len(printed["results"]) == 3 and len(printed["long_formula"]["parts"]) >= 1
