"""Start-up checks: what the site needs installed says so by name before the first request does."""
from django.core import checks

from ml.text import MissingTextModel
from ml.text.encoder import model_dir, require_onnx_file


@checks.register()
def text_model_installed(app_configs, **kwargs) -> list[checks.CheckMessage]:
    try:
        model_dir()
        require_onnx_file()
    except MissingTextModel as error:
        return [checks.Error(str(error), id="searchapp.E001")]
    return []
