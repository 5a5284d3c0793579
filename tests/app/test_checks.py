"""Start-up checks: a missing text model is an error naming what to run, before the first request."""
from searchapp import checks


def test_the_installed_text_model_passes():
    assert checks.text_model_installed(None) == []


def test_a_missing_onnx_export_is_an_error_saying_how_to_make_it(monkeypatch, tmp_path):
    monkeypatch.setattr("ml.text.encoder.onnx_path", lambda: tmp_path / "none.onnx")
    [error] = checks.text_model_installed(None)
    assert error.id == "searchapp.E001" and str(tmp_path / "none.onnx") in error.msg and "onnx_export" in error.msg
