"""Template filters of the search pages."""
import json

from django import template

register = template.Library()


@register.filter
def http_url(url: str) -> str:
    """The URL if it is http(s), else "": a corpus may carry `javascript:` links that escaping does not stop."""
    return url if isinstance(url, str) and url.lower().startswith(("http://", "https://")) else ""


@register.filter
def as_json(value) -> str:
    """JSON for a data- attribute; auto-escaping then makes it safe inside the quotes."""
    return json.dumps(value, separators=(",", ":"))
