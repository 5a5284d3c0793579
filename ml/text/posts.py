"""What the text encoder reads of a post: its title, a blank line and its body."""
from __future__ import annotations


def post_text(title: str, body: str) -> str:
    return f"{title}\n\n{body}" if title else body


def body_span(title: str, start: int, end: int) -> tuple[int, int]:
    """A formula's place in `post_text` from its place in the body (a title's formula, end 0, has none)."""
    shift = len(title) + 2 if title else 0
    return (start + shift, end + shift) if end > start else (0, 0)
