"""Template filters for posts. Their strings are not marked safe, so auto-escaping still applies to post text."""
from django import template

from searchapp.models import Post
from searchapp.web import snippets

register = template.Library()
register.filter("paragraphs", snippets.paragraphs)
register.filter("snippet", snippets.snippet)


@register.filter
def post_title(post: Post) -> str:
    """Its title; an answer has none of its own, so it is named after its question (select_related("parent"))."""
    if post.title or post.parent_id is None:
        return post.title or post.source_id
    return f"Answer to: {post.parent.title or post.parent.source_id}"
