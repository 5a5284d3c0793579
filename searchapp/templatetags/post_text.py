"""Template filters for posts. Their strings are not marked safe, so auto-escaping still applies to post text."""
from django import template

from searchapp.web import snippets

register = template.Library()
register.filter("snippet", snippets.snippet)

