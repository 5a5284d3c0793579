"""Storing a chunk's posts (`pipeline.store_prepared`), and linking a job's answers to their questions once all its
parts are stored.

A post stored before with the same content is reused, and one reusing its id with other content refused: a file indexed
again adds nothing, and two posts never share an id. A new post is written once, whole (see `store_posts`).
"""
from __future__ import annotations

import numpy as np
from django.db import connection, transaction
from psycopg.types.json import Jsonb

from corpora.records import IndexRecord, PostRecord
from ml.text import EncodedPost
from searchapp.models import Corpus, IndexJob, Post
from searchapp.sql import copy_binary, halfvec

POST_CONTENT = ("title", "body", "url", "tags")
"""What a post stores besides its id: a reused id must come with the same content."""


def store_posts(corpus: Corpus, part_id: int, records: list[IndexRecord], texts: dict[str, EncodedPost],
                fused: dict[str, np.ndarray], document_id: int | None) -> tuple[dict[str, int], dict[int, str]]:
    """Post ids by source id, and the records refused by line: those reusing a stored post's id with other
    content. A post stored before with the same content (the same file indexed again) is reused; an answer
    is linked to its question when the question is in the corpus, else when its job ends (`link_answers`: another
    part may hold the question).

    Each new post is written once, whole: COPY into a staging table, then INSERT … SELECT with its vectors and its
    question. Inserting bare rows and then updating their vectors and question wrote every post three more times,
    its words' GIN entries and its HNSW entry with it (an updated vector is not a HOT update). Answers whose question
    is in the same chunk go in a second INSERT, once their question has its id."""
    first: dict[str, PostRecord] = {}
    for record in records:
        first.setdefault(record.post.source_id, record.post)
    here = set(first)
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMP TABLE IF NOT EXISTS incoming_post (ord integer, source_id varchar(200), title varchar(500),"
            " body text, url varchar(1000), tags jsonb, embedding halfvec, fused halfvec, parent_source"
            " varchar(200), parent_here boolean) ON COMMIT DELETE ROWS")
        copy_binary(cursor, "COPY incoming_post FROM STDIN",
                    ["integer", "text", "text", "text", "text", "jsonb", "halfvec", "halfvec", "text", "boolean"],
                    ((ord, source_id, *_content(post)[:3], Jsonb(post.tags), halfvec(_vector(texts.get(source_id))),
                      halfvec(fused.get(source_id)), post.parent or None, post.parent in here)
                     for ord, (source_id, post) in enumerate(first.items())))
        inserted: set[str] = set()
        for parent_here in (False, True):
            cursor.execute(
                "INSERT INTO searchapp_post (corpus_id, document_id, source_id, title, body, url, tags, embedding, fused,"
                " parent_id) SELECT %s, %s, i.source_id, i.title, i.body, i.url, i.tags, i.embedding, i.fused, q.id"
                " FROM incoming_post i LEFT JOIN searchapp_post q ON q.corpus_id = %s AND q.source_id = i.parent_source"
                " WHERE i.parent_here = %s ORDER BY i.ord ON CONFLICT (corpus_id, source_id) DO NOTHING"
                " RETURNING source_id", [corpus.pk, document_id, corpus.pk, parent_here])
            inserted.update(row[0] for row in cursor.fetchall())
        cursor.execute(
            "INSERT INTO searchapp_unlinkedanswer (part_id, post_id, parent_source_id) SELECT %s, p.id, i.parent_source"
            " FROM incoming_post i JOIN searchapp_post p ON p.corpus_id = %s AND p.source_id = i.source_id"
            " WHERE i.parent_source IS NOT NULL AND p.parent_id IS NULL AND i.source_id = ANY(%s)",
            [part_id, corpus.pk, list(inserted)])
        cursor.execute("TRUNCATE incoming_post")
    stored = {source_id: (post_id, tuple(content)) for source_id, post_id, *content in corpus.posts.filter(
        source_id__in=first).values_list("source_id", "id", *POST_CONTENT)}
    refused = {record.line: f"post id {record.post.source_id!r} is already indexed with another title, body, url "
                            "or tags; give each post its own id"
               for record in records if stored[record.post.source_id][1] != _content(record.post)}
    ids = {source_id: post_id for source_id, (post_id, _) in stored.items()}
    reused = {source_id: post for source_id, post in first.items()
              if source_id not in inserted and stored[source_id][1] == _content(post)}
    _complete_stored_posts(corpus, reused, ids, texts, fused)
    return ids, refused


def link_answers(job: IndexJob) -> None:
    """Link the answers the job's parts stored before their question to it, now that every part is stored; an
    answer whose question is not in the corpus stays unlinked, as when it is stored."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE searchapp_post a SET parent_id = q.id FROM searchapp_unlinkedanswer u"
            " JOIN searchapp_indexpart p ON p.id = u.part_id"
            " JOIN searchapp_post q ON q.corpus_id = %s AND q.source_id = u.parent_source_id"
            " WHERE p.job_id = %s AND a.id = u.post_id", [job.corpus_id, job.pk])
        cursor.execute("DELETE FROM searchapp_unlinkedanswer u USING searchapp_indexpart p"
                       " WHERE p.id = u.part_id AND p.job_id = %s", [job.pk])


def _complete_stored_posts(corpus: Corpus, reused: dict, ids: dict[str, int], texts: dict[str, EncodedPost],
                           fused: dict[str, np.ndarray]) -> None:
    """Posts stored before: the vectors this chunk computed (only for those without: `pipeline._to_encode`) and their
    question, when it is now in the corpus; what they hold already stays."""
    parents = dict(corpus.posts.filter(source_id__in={post.parent for post in reused.values() if post.parent})
                   .values_list("source_id", "id"))
    encoded = [Post(pk=ids[source_id], embedding=texts[source_id].vector, fused=fused.get(source_id))
               for source_id in reused if source_id in texts]
    Post.objects.bulk_update(encoded, ["embedding", "fused"])
    linked = [Post(pk=ids[source_id], parent_id=parents[post.parent]) for source_id, post in reused.items()
              if post.parent in parents]
    Post.objects.bulk_update(linked, ["parent"])


def _vector(encoded: EncodedPost | None) -> np.ndarray | None:
    return None if encoded is None else encoded.vector


def _content(post) -> tuple:
    """The post's POST_CONTENT values as stored (title and url cut to their columns)."""
    return post.title[:500], post.body, post.url[:1000], post.tags

