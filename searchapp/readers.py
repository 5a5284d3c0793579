"""Corpus file readers. Each yields records or `RecordError`s: a bad line is reported, never dropped."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator


@dataclass(frozen=True)
class PostRecord:
    source_id: str
    title: str = ""
    body: str = ""
    url: str = ""
    tags: list[str] = field(default_factory=list)
    line: int = 0


@dataclass(frozen=True)
class RecordError:
    line: int
    message: str


def read_jsonl_posts(path: Path) -> Iterator[PostRecord | RecordError]:
    """One post per line: `{"id", "title", "body", "url", "tags"}`; `id` is required."""
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if raw.strip():
                yield _post_from_line(raw, number)


def _post_from_line(raw: bytes, number: int) -> PostRecord | RecordError:
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        return RecordError(number, f"not UTF-8 at byte {error.start}")
    except json.JSONDecodeError as error:
        return RecordError(number, f"invalid JSON: {error.msg} at column {error.colno}")
    if not isinstance(data, dict):
        return RecordError(number, "expected a JSON object")
    if not isinstance(data.get("id"), (str, int)) or str(data["id"]).strip() == "":
        return RecordError(number, "missing or empty 'id'")
    tags = data.get("tags") or []
    if isinstance(tags, str):
        tags = [tag for tag in tags.replace(">", " ").replace("<", " ").split() if tag]
    return PostRecord(
        source_id=str(data["id"]),
        title=str(data.get("title") or ""),
        body=str(data.get("body") or ""),
        url=str(data.get("url") or ""),
        tags=[str(tag) for tag in tags] if isinstance(tags, list) else [],
        line=number,
    )
