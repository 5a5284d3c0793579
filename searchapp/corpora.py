"""Actions on corpora: load posts from a file into the database (idempotent by source id)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from searchapp.models import Corpus, Post
from searchapp.readers import PostRecord, RecordError, read_jsonl_posts


@dataclass
class LoadResult:
    created: int = 0
    existing: int = 0
    errors: list[RecordError] = field(default_factory=list)


def load_posts(path: Path, corpus_name: str, description: str = "") -> LoadResult:
    """Add the posts of a JSONL file to a corpus; posts already present (same id) are left alone."""
    corpus, _ = Corpus.objects.get_or_create(name=corpus_name, defaults={"description": description})
    result = LoadResult()
    records: dict[str, PostRecord] = {}
    for item in read_jsonl_posts(path):
        if isinstance(item, RecordError):
            result.errors.append(item)
        elif item.source_id in records:
            result.errors.append(RecordError(item.line, f"duplicate id {item.source_id!r}"))
        else:
            records[item.source_id] = item
    with transaction.atomic():
        known = set(corpus.posts.values_list("source_id", flat=True))
        new = [_post(corpus, record) for record in records.values() if record.source_id not in known]
        Post.objects.bulk_create(new, ignore_conflicts=True)
    result.created, result.existing = len(new), len(records) - len(new)
    return result


def _post(corpus: Corpus, record: PostRecord) -> Post:
    return Post(corpus=corpus, source_id=record.source_id, title=record.title[:500], body=record.body,
                url=record.url[:1000], tags=record.tags)
