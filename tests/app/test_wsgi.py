"""The WSGI entry point (gunicorn, runserver) loads the model before the first request."""
import subprocess
import sys

from tests.conftest import REPO

CHECK = ("import mathsearch.wsgi\n"
         "from searchapp.embedding import get_codebook, get_model\n"
         "print(get_model.cache_info().currsize, get_codebook.cache_info().currsize)")


def test_the_model_and_codebook_are_loaded_when_the_application_is(service_env):
    run = subprocess.run([sys.executable, "-c", CHECK], cwd=REPO, env=service_env, capture_output=True, text=True,
                         timeout=120)
    assert run.stdout.split() == ["1", "1"], run.stderr
