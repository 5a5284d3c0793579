"""MaRF's fusion learned from an indexed corpus: its (question, answer) posts as training pairs, and every post's
fused vector recomputed once a fusion is trained (the vector depends on the fusion's weights)."""
from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable
from pathlib import Path

from tqdm import tqdm

from ml.text import text_encoder
from ml.text.encoder import dense_threads
from ml.text.marf import Fusion
from ml.text.marf_training import FusionPost
from ml.text.posts import body_span, post_text
from searchapp.models import Occurrence, Post, slg_matrices

BATCH = 256


def corpus_posts(corpus: str, cache: Path, progress: Callable[[str], None] = print) -> dict[int, FusionPost]:
    """Every post of the corpus with text: its MiniLM tokens (not stored in the database: encoded again, or read
    from `cache` when the corpus's posts are the ones encoded last time) and the SLG node vectors of its formulas."""
    posts = list(Post.objects.filter(corpus__name=corpus).exclude(body="").order_by("id")
                 .values_list("id", "title", "body"))
    fingerprint = hashlib.sha256(repr([(post_id, len(title), len(body)) for post_id, title, body in posts])
                                 .encode()).hexdigest()[:16]
    cached = cache / f"{corpus}-{fingerprint}.pickle"
    if cached.is_file():
        progress(f"reading the encoded posts from {cached}")
        with open(cached, "rb") as handle:
            return pickle.load(handle)  # written by this function, below
    occurrences: dict[int, list[tuple[int, int, int]]] = {}
    for post_id, formula_id, start, end in Occurrence.objects.filter(post__corpus__name=corpus).order_by(
            "post_id", "position").values_list("post_id", "formula_id", "start", "end"):
        occurrences.setdefault(post_id, []).append((formula_id, start, end))
    matrices = slg_matrices([formula_id for found in occurrences.values() for formula_id, _, _ in found])
    progress(f"encoding {len(posts)} posts of {corpus!r} with the text encoder …")
    encoded = {}
    for start in tqdm(range(0, len(posts), BATCH), unit="batch", disable=len(posts) < BATCH):
        batch = posts[start:start + BATCH]
        texts = [post_text(title, body) for _, title, body in batch]
        spans = [[body_span(title, s, e) for _, s, e in occurrences.get(post_id, [])] for post_id, title, _ in batch]
        with dense_threads():
            encoded_batch = text_encoder().encode(texts, spans)
        for (post_id, _, _), post in zip(batch, encoded_batch):
            encoded[post_id] = FusionPost(post.tokens, [matrices[f] for f, _, _ in occurrences.get(post_id, [])
                                                         if f in matrices])
    cache.mkdir(parents=True, exist_ok=True)
    with open(cached, "wb") as handle:
        pickle.dump(encoded, handle)
    return encoded


def question_answer_pairs(corpus: str, posts: dict[int, FusionPost]) -> list[tuple[FusionPost, FusionPost]]:
    links = Post.objects.filter(corpus__name=corpus, parent__isnull=False).values_list("parent_id", "id")
    return [(posts[question], posts[answer]) for question, answer in links if question in posts and answer in posts]


def refresh_fused(posts: dict[int, FusionPost], fusion: Fusion) -> int:
    """Store every post's MaRF vector under `fusion`; returns how many."""
    Post.objects.bulk_update([Post(pk=post_id, fused=fusion.post_vector(post.tokens.astype("float32"), post.formulas))
                              for post_id, post in posts.items()], ["fused"], batch_size=500)
    return len(posts)
