"""The component schemas: what they call text is what the API accepts."""
import re

import pytest

from searchapp.web.openapi_schemas import SCHEMAS

pytestmark = pytest.mark.django_db


TEXT_PATTERN = re.compile(SCHEMAS["FormulaFeedbackInput"]["properties"]["query"]["pattern"])


@pytest.mark.parametrize("text", [
    *(pytest.param(char, id=f"U+{ord(char):04X}") for char in map(chr, range(0x10000)) if char.isspace()),
    pytest.param("\ufeff", id="byte-order-mark"), pytest.param("a\x00b", id="nul"), pytest.param(" x ", id="padded"),
])
def test_the_schema_calls_blank_what_the_api_does(client, text):
    """JSON Schema's \\s is ECMAScript's, not str.strip()'s (schemathesis: q=%1D was schema-valid, yet a 400)."""
    accepted = client.get("/api/posts", {"q": text, "k": 1}).status_code == 200
    assert bool(TEXT_PATTERN.search(text)) == accepted
