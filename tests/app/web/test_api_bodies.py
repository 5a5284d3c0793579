"""JSON bodies of the POST API: an object of known parameters, each of its JSON type, read as query-string values."""
import json

import pytest
from django.test import RequestFactory

from searchapp.errors import ApiError
from searchapp.web.api_bodies import json_body, json_params

FIELDS = {"q": str, "k": int, "fusion": ("max", "learned")}


def request(body, content_type="application/json"):
    data = body if isinstance(body, bytes) else json.dumps(body)
    return RequestFactory().post("/api/search", data, content_type=content_type)


def refused(read, *args) -> ApiError:
    with pytest.raises(ApiError) as raised:
        read(*args)
    return raised.value


def test_a_body_of_known_parameters_is_read_as_their_query_string_spelling():
    assert json_params(request({"q": "x^2", "k": 10.0, "fusion": "max"}), FIELDS) == {"q": "x^2", "k": "10",
                                                                                        "fusion": "max"}
    assert json_body(request(b"\xef\xbb\xbf{}")) == {}  # a byte-order mark is read past
    assert json_body(request(b"")) == {}


@pytest.mark.parametrize("body, message", [
    pytest.param(b"[1]", "the body must be a JSON object", id="an-array"),
    pytest.param(b"{not json", "the body is not valid JSON: ", id="not-json"),
    pytest.param(b"\xc3(", "the body is not UTF-8 (byte 0)", id="not-utf-8"),
    pytest.param(b"[" * 100_000 + b"]" * 100_000, "the body nests too deeply to read", id="too-deep"),
])
def test_a_body_that_is_not_a_json_object_says_why(body, message):
    error = refused(json_body, request(body))
    assert error.code == "invalid_json" and error.message.startswith(message)


@pytest.mark.parametrize("body, message", [
    pytest.param({"q": 1}, "q must be a string, got the number 1", id="number-for-a-string"),
    pytest.param({"k": True}, "k must be an integer, got true", id="bool-for-an-integer"),
    pytest.param({"k": 2.5}, "k must be an integer, got the number 2.5", id="fraction"),
    pytest.param({"k": None}, "k must be an integer, got null", id="null"),
    pytest.param({"q": ["x"]}, "q must be a string, got an array", id="array"),
    pytest.param({"q": {"x": 1}}, "q must be a string, got an object", id="object"),
    pytest.param({"fusion": "median"}, "fusion must be one of max, learned, got the string 'median'", id="choice"),
])
def test_a_parameter_of_the_wrong_type_is_refused_naming_it(body, message):
    error = refused(json_params, request(body), FIELDS)
    assert (error.code, error.message) == ("invalid_parameter", message)


def test_unknown_parameters_and_bodies_other_than_json_are_refused():
    error = refused(json_params, request({"q": "x", "size": 3}), FIELDS)
    assert (error.code, error.message) == ("unknown_parameter", "unknown parameter 'size'; this operation takes q, k, fusion")
    error = refused(json_params, request(b"q=x", content_type="application/x-www-form-urlencoded"), FIELDS)
    assert (error.code, error.status) == ("unsupported_media_type", 415)
