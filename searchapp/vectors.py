"""Encodings of node vectors in the database: pgvector text literals and float16 matrix blobs."""
from __future__ import annotations

import numpy as np

from searchapp.models import VECTOR_DIM


def vector_literal(vector: np.ndarray) -> str:
    """pgvector's text form `[a,b,…]`; 4 significant digits is more than halfvec keeps."""
    return "[" + ",".join(f"{value:.4g}" for value in vector.tolist()) + "]"


def matrix_bytes(matrix: np.ndarray) -> bytes:
    return np.ascontiguousarray(matrix, dtype=np.float16).tobytes()


def decode_matrix(data: bytes | memoryview) -> np.ndarray:
    """(n_nodes, VECTOR_DIM) float32 from a stored blob."""
    return np.frombuffer(bytes(data), dtype=np.float16).astype(np.float32).reshape(-1, VECTOR_DIM)
