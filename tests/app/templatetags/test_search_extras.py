import json

import pytest
from django.template import Context, Template

from searchapp.templatetags.search_extras import as_json, http_url


@pytest.mark.parametrize("url, shown", [
    ("https://en.wikipedia.org/wiki/Logarithm", "https://en.wikipedia.org/wiki/Logarithm"),
    ("HTTP://example.org/", "HTTP://example.org/"),
    ("javascript:alert(1)", ""),
    ("data:text/html,<script>", ""),
    ("/post/1", ""),
    (None, ""),
])
def test_only_http_links_are_kept(url, shown):
    assert http_url(url) == shown


def test_json_for_a_data_attribute_is_compact_and_escaped_by_the_template():
    assert as_json({"a": [1, 2]}) == '{"a":[1,2]}'
    rendered = Template('{% load search_extras %}<li data-x="{{ value|as_json }}">').render(
        Context({"value": {"q": '"><script>'}}))
    assert "<script>" not in rendered
    attribute = rendered.split('data-x="')[1].split('">')[0]
    assert json.loads(attribute.replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")) == {"q": '"><script>'}
