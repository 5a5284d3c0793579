"""The WSGI entry point (gunicorn, runserver) loads the models and the ranker before the first request."""
import subprocess
import sys

from tests.conftest import REPO

CHECK = ("import mathsearch.wsgi\n"
         "from ml.text import text_encoder\n"
         "from django.conf import settings\n"
         "from searchapp.embedding import get_codebook, get_fusion, get_model\n"
         "from searchapp.search.ranking import _loaded\n"
         "print(*(loaded.cache_info().currsize for loaded in (get_model, get_codebook, text_encoder, get_fusion)),\n"
         "      int(settings.MATHSEARCH_RANKER_DIR in _loaded))")


def test_the_models_are_loaded_when_the_application_is(service_env):
    """Formula and question searches alike: a first question search waited 1.0-1.7 s for the text encoder, a first
    formula search 1.8 s more for the ranker (LightGBM's import)."""
    run = subprocess.run([sys.executable, "-c", CHECK], cwd=REPO, env=service_env, capture_output=True, text=True)
    assert run.stdout.split() == ["1", "1", "1", "1", "1"], run.stderr
