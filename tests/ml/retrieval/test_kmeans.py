import numpy as np
import pytest

from ml.retrieval.codebook import CodebookError
from ml.retrieval.kmeans import fit_codebook, spherical_kmeans


@pytest.fixture
def clustered():
    """Unit vectors around four well-separated directions of R^8."""
    rng = np.random.default_rng(0)
    centres = np.eye(8, dtype=np.float32)[:4]
    points = np.repeat(centres, 50, axis=0) + 0.05 * rng.standard_normal((200, 8)).astype(np.float32)
    return centres, points / np.linalg.norm(points, axis=1, keepdims=True)


def test_kmeans_finds_the_clusters_as_unit_centroids(clustered):
    centres, points = clustered
    centroids = spherical_kmeans(points, 4, seed=1)
    assert np.allclose(np.linalg.norm(centroids, axis=1), 1, atol=1e-5)
    assert sorted((centres @ centroids.T).argmax(axis=1).tolist()) == [0, 1, 2, 3]
    assert (centres @ centroids.T).max(axis=1).min() > 0.99


def test_kmeans_is_reproducible_and_refuses_too_few_points(clustered):
    _, points = clustered
    assert np.array_equal(spherical_kmeans(points, 4, seed=3), spherical_kmeans(points, 4, seed=3))
    with pytest.raises(CodebookError, match="200 vectors cannot make 500 centroids"):
        spherical_kmeans(points, 500)


def test_a_fitted_two_level_codebook_assigns_like_the_exact_nearest_centroid():
    rng = np.random.default_rng(0)
    points = rng.standard_normal((4000, 16)).astype(np.float32)
    points /= np.linalg.norm(points, axis=1, keepdims=True)
    codebook = fit_codebook({"slg": points, "opg": points}, cells=8, per_cell=16, seed=0)
    assert codebook.centroids["slg"].shape == (128, 16) and codebook.coarse["slg"].shape == (8, 16)
    exact = (points @ codebook.centroids["slg"].T).argmax(axis=1)
    assert np.mean(codebook.assign("slg", points) == exact) > 0.9
