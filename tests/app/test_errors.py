"""Errors of the web layer: a stable code, a status, a message, and for parse errors the notation and position."""
import json

import pytest

from mathparse import ParseError
from searchapp.errors import ApiError, check_text, parse_error, shown


def test_an_api_error_answers_its_code_and_message_and_a_position_only_when_it_has_one():
    plain = ApiError("invalid_parameter", "k must be at least 1").response()
    assert plain.status_code == 400
    assert json.loads(plain.content) == {"code": "invalid_parameter", "message": "k must be at least 1"}
    placed = ApiError("latex_unbalanced_braces", "unbalanced", pos=0, status=422).response()
    assert placed.status_code == 422 and json.loads(placed.content)["pos"] == 0


@pytest.mark.parametrize("kind, notation, code", [
    pytest.param("unbalanced_braces", "latex", "latex_unbalanced_braces", id="named-after-the-notation"),
    pytest.param("unbalanced_braces", "mathml", "mathml_unbalanced_braces", id="another-notation"),
    pytest.param("too_large", "slt", "query_too_large", id="too-large-in-every-notation"),
    pytest.param("only_variables", "latex", "query_only_variables", id="only-variables-in-every-notation"),
])
def test_a_parse_error_is_a_400_naming_the_notation_unless_every_notation_shares_it(kind, notation, code):
    error = parse_error(ParseError("cannot read", 7, kind), notation)
    assert (error.code, error.message, error.pos, error.status) == (code, "cannot read", 7, 400)


def test_a_value_quoted_in_a_message_is_cut_short():
    assert shown("abc") == "'abc'"
    assert len(shown("x" * 2_000_000)) <= 64 and "..." in shown("x" * 2_000_000)
    nested: list = []
    for _ in range(900):
        nested = [nested]
    assert len(shown(nested)) < 64


@pytest.mark.parametrize("text, message", [
    pytest.param("x\x00y", "q must not contain a NUL character (at 1)", id="nul"),
    pytest.param("ab\ud800", "q must not contain a lone surrogate (at 2)", id="lone-surrogate"),
])
def test_text_postgres_or_utf8_cannot_hold_is_refused_naming_the_field_and_the_place(text, message):
    with pytest.raises(ApiError) as raised:
        check_text("q", text)
    assert (raised.value.code, raised.value.message) == ("invalid_parameter", message)


def test_other_text_passes_unchanged():
    assert check_text("q", "∫ x² dx") == "∫ x² dx"
