import numpy as np
import pytest

from ml.retrieval.codebook import CodebookError, load_codebook, make_codebook, save_codebook, side_for


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
