"""The search parameters of a request, validated once for the pages and the API: defaults, bounds and the errors
that name the parameter."""
import pytest

from searchapp.errors import ApiError
from searchapp.models import Corpus
from searchapp.search.ranking import DEFAULT_ORDER
from searchapp.web.params import (
    DEFAULT_K,
    MAX_OFFSET,
    paging_params,
    question_params,
    search_params,
)


def refused(params_of, params: dict) -> ApiError:
    with pytest.raises(ApiError) as raised:
        params_of(params)
    return raised.value


@pytest.mark.django_db
def test_a_search_takes_its_defaults_from_empty_values(index_file):
    index_file()
    assert search_params({"q": "  x^2  ", "k": "", "corpus": ""}) == {
        "text": "x^2", "notation": "latex", "k": DEFAULT_K, "offset": 0, "fusion": DEFAULT_ORDER, "corpus": None,
        "context": ""}
    assert search_params({"q": "<math><mi>x</mi></math>", "notation": "auto", "corpus": "test"})["notation"] == "mathml"
    assert search_params({"q": "x", "context": " primes "}, default_notation="auto")["context"] == "primes"


@pytest.mark.parametrize("params, code, message", [
    pytest.param({"q": " "}, "missing_query", "the query parameter q is required", id="blank-query"),
    pytest.param({"q": "x" * 5001}, "query_too_long", "the query has 5001 characters; the limit is 5000", id="too-long"),
    pytest.param({"q": "x", "k": "ten"}, "invalid_parameter", "k must be an integer, got 'ten'", id="k-not-a-number"),
    pytest.param({"q": "x", "k": "0"}, "invalid_parameter", "k must be between 1 and 1000, got 0", id="k-zero"),
    pytest.param({"q": "x", "offset": str(MAX_OFFSET + 1)}, "invalid_parameter",
                 f"offset must be between 0 and {MAX_OFFSET}, got {MAX_OFFSET + 1}", id="offset-past-the-last-page"),
    pytest.param({"q": "x", "fusion": "median"}, "invalid_parameter", "fusion must be one of ", id="unknown-fusion"),
    pytest.param({"q": "x", "notation": "asciimath"}, "invalid_parameter", "notation must be one of ",
                 id="unknown-notation"),
    pytest.param({"q": "x", "context": "w" * 5001}, "invalid_parameter", "context has 5001 characters",
                 id="context-too-long"),
    pytest.param({"q": "x\x00"}, "invalid_parameter", "q must not contain a NUL character", id="nul"),
])
def test_bad_search_parameters_are_refused_by_name(params, code, message):
    error = refused(search_params, params)
    assert error.code == code and error.message.startswith(message) and error.status == 400


@pytest.mark.django_db
def test_a_corpus_no_search_can_read_is_a_404_naming_those_there_are(index_file):
    index_file()
    Corpus.objects.create(name="empty")  # no post stored: not searchable
    error = refused(search_params, {"q": "x", "corpus": "empty"})
    assert (error.code, error.status, error.message) == ("unknown_corpus", 404, "no corpus named 'empty'; the corpora are test")
    assert refused(search_params, {"q": "x", "corpus": "c" * 101}).code == "invalid_parameter"


@pytest.mark.django_db
def test_a_question_takes_a_mode_and_a_tag_and_needs_words_or_a_formula():
    assert question_params({"q": "why $x^2$?", "tag": " algebra "}) == {
        "question": "why $x^2$?", "k": DEFAULT_K, "offset": 0, "mode": "ssemb", "corpus": None, "tag": "algebra"}
    assert refused(question_params, {"q": " $$ "}).message == "the question has neither words nor formulas"
    assert refused(question_params, {"q": "x", "mode": "nope"}).message.startswith("mode must be one of ssemb, ")
    assert refused(question_params, {"q": "x", "tag": "t" * 101}).message == "tags have at most 100 characters, got 101"


def test_paging_reads_k_and_offset():
    assert paging_params({"k": "25", "offset": "50"}) == {"k": 25, "offset": 50}
