import numpy as np
import pytest
from torch_geometric.data import Batch

from mathparse import parse_latex
from ml import embed as embed_module
from ml.embed import embed, load_default_model
from ml.models.checkpoint import save_model


def test_one_matrix_per_representation_in_preorder(model, formulas):
    result = embed(formulas, model=model)
    assert [(r["slg"].shape, r["opg"].shape) for r in result] == [((5, 16), (7, 16)), ((3, 16), (3, 16)),
                                                                  ((3, 16), (0, 16))]
    assert all(r["slg"].dtype == np.float32 and r["opg"].dtype == np.float32 for r in result)
    alone = model.opg.encode(Batch.from_data_list([model.featurizer.graph(formulas[0].opt)])).detach().numpy()
    np.testing.assert_allclose(result[0]["opg"], alone, atol=1e-6)
    alone = model.slg.encode(Batch.from_data_list([model.featurizer.graph(formulas[0].slt)])).detach().numpy()
    np.testing.assert_allclose(result[0]["slg"], alone, atol=1e-6)


@pytest.mark.parametrize("batch_size", [pytest.param(1, id="one"), pytest.param(2, id="uneven")])
def test_batch_size_does_not_change_vectors(model, formulas, batch_size):
    whole, chunked = embed(formulas, model=model), embed(formulas, model=model, batch_size=batch_size)
    for a, b in zip(whole, chunked):
        np.testing.assert_allclose(a["slg"], b["slg"], atol=1e-6)
        np.testing.assert_allclose(a["opg"], b["opg"], atol=1e-6)


def test_formulas_of_one_symbol_have_no_edges_and_still_embed(model):
    """A batch without a single edge (a search for `x`, a chunk of one-symbol formulas) must not fail."""
    result = embed([parse_latex("x"), parse_latex("2")], model=model)
    assert [(r["slg"].shape, r["opg"].shape) for r in result] == [((1, 16), (1, 16))] * 2
    assert np.isfinite(result[0]["slg"]).all()


def test_empty_input(model):
    assert embed([], model=model) == []


def test_default_model_from_environment(model, formulas, tmp_path, monkeypatch):
    save_model(model, tmp_path / "env-model")
    monkeypatch.setenv(embed_module.MODEL_DIR_ENV, str(tmp_path / "env-model"))
    loaded = load_default_model()
    assert loaded is load_default_model()  # loaded once per path
    np.testing.assert_allclose(embed(formulas)[0]["opg"], embed(formulas, model=model)[0]["opg"], atol=1e-6)


def test_explicit_path_wins_over_environment(model, tmp_path, monkeypatch):
    save_model(model, tmp_path / "explicit")
    monkeypatch.setenv(embed_module.MODEL_DIR_ENV, str(tmp_path / "nowhere"))
    assert load_default_model(tmp_path / "explicit").config == model.config
