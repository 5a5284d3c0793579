"""Stored node matrices: 4-bit levels, two components a byte, decoded to unit rows close to the originals."""
import numpy as np

from mathparse import parse_latex
from searchapp.embedding import embed_graphs
from searchapp.vectors import NODE_BYTES, VECTOR_DIM, decode_matrix, decode_stacked, matrix_bytes


def _unit_rows(count: int, seed: int = 0) -> np.ndarray:
    rows = np.random.default_rng(seed).standard_normal((count, VECTOR_DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_a_node_takes_half_its_dimensions_in_bytes_and_comes_back_a_close_unit_row():
    rows = _unit_rows(500)
    blob = matrix_bytes(rows)
    assert len(blob) == 500 * NODE_BYTES == 500 * 32
    decoded = decode_matrix(blob)
    assert decoded.shape == rows.shape and decoded.dtype == np.float32
    assert np.allclose(np.linalg.norm(decoded, axis=1), 1, atol=1e-5)
    cosines = (rows * decoded).sum(axis=1)
    assert cosines.mean() > 0.99 and cosines.min() > 0.97


def test_the_models_node_vectors_survive_the_clip():
    """Real node vectors (not random ones) are what the clip was chosen for: every node keeps its direction."""
    vectors = embed_graphs([parse_latex(r"\int_0^\infty e^{-x^2}\,dx = \frac{\sqrt{\pi}}{2}")])[0]
    assert set(vectors) == {"slg", "opg"}
    for matrix in vectors.values():
        cosines = (matrix * decode_matrix(matrix_bytes(matrix))).sum(axis=1)
        assert cosines.min() > 0.98


def test_stacked_decoding_keeps_each_blobs_row_count():
    blobs = [matrix_bytes(_unit_rows(n, seed=n)) for n in (3, 0, 5)]
    stacked, sizes = decode_stacked(blobs)
    assert sizes.tolist() == [3, 0, 5] and stacked.shape == (8, VECTOR_DIM)
    assert np.allclose(stacked[3:], decode_matrix(blobs[2]))
