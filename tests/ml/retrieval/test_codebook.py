import numpy as np
import pytest

from ml.retrieval.codebook import (
    CodebookError,
    fit_codebook,
    load_codebook,
    make_codebook,
    save_codebook,
    side_for,
    spherical_kmeans,
)


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


def flat(fine: np.ndarray):
    """One cell holding every centroid: assignment is then exact nearest-centroid."""
    centre = fine.mean(axis=0, keepdims=True)
    return make_codebook({"slg": fine, "opg": fine[::-1].copy()}, {"slg": centre, "opg": centre})


def test_assign_picks_the_highest_cosine_centroid():
    codebook = flat(np.eye(3, dtype=np.float32))
    vectors = np.array([[0.1, 0.9, 0.0], [0.8, 0.1, 0.1]], dtype=np.float32)
    assert codebook.assign("slg", vectors).tolist() == [1, 0]
    assert codebook.assign("opg", vectors).tolist() == [1, 2]
    assert codebook.assign("slg", np.zeros((0, 3), dtype=np.float32)).tolist() == []


def test_a_fitted_two_level_codebook_assigns_like_the_exact_nearest_centroid():
    rng = np.random.default_rng(0)
    points = rng.standard_normal((4000, 16)).astype(np.float32)
    points /= np.linalg.norm(points, axis=1, keepdims=True)
    codebook = fit_codebook({"slg": points, "opg": points}, cells=8, per_cell=16, seed=0)
    assert codebook.centroids["slg"].shape == (128, 16) and codebook.coarse["slg"].shape == (8, 16)
    exact = (points @ codebook.centroids["slg"].T).argmax(axis=1)
    assert np.mean(codebook.assign("slg", points) == exact) > 0.9


def test_a_saved_codebook_loads_with_the_same_fingerprint(tmp_path):
    codebook = flat(np.eye(4, dtype=np.float32))
    save_codebook(codebook, tmp_path)
    loaded = load_codebook(tmp_path, dim=4)
    assert loaded.fingerprint == codebook.fingerprint
    assert np.array_equal(loaded.centroids["opg"], codebook.centroids["opg"])
    assert flat(-np.eye(4, dtype=np.float32)).fingerprint != codebook.fingerprint


def test_a_missing_damaged_or_mismatched_codebook_is_named_in_the_error(tmp_path):
    with pytest.raises(CodebookError, match="no codebook; build it with"):
        load_codebook(tmp_path, dim=4)
    (tmp_path / "codebook.safetensors").write_bytes(b"not a safetensors file")
    with pytest.raises(CodebookError, match="codebook.safetensors: unreadable codebook"):
        load_codebook(tmp_path, dim=4)
    save_codebook(flat(np.eye(4, dtype=np.float32)), tmp_path)
    with pytest.raises(CodebookError, match=r"'slg' centroids have shape \(4, 4\), the model needs \(n, 64\)"):
        load_codebook(tmp_path, dim=64)


def test_centroids_must_split_evenly_into_cells():
    with pytest.raises(CodebookError, match="5 centroids do not split evenly into 2 cells"):
        make_codebook({"slg": np.eye(5, dtype=np.float32), "opg": np.eye(5, dtype=np.float32)},
                      {"slg": np.eye(5, dtype=np.float32)[:2], "opg": np.eye(5, dtype=np.float32)[:1]})


@pytest.mark.parametrize(("postings", "side"), [(0, 64), (4_000_000, 64), (14_000_000, 128), (60_000_000, 256)])
def test_a_codebook_fitted_to_an_index_keeps_posting_lists_near_a_thousand(postings, side):
    assert side_for(postings) == side
