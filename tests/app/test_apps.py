"""What the app sets up for every process when Django starts."""
import os
import subprocess
import sys

from tests.conftest import REPO


def test_numpy_blas_computes_on_the_configured_threads():
    """A fresh process (the limit is set once, at start-up), told 1 thread, on a machine with more cores."""
    code = ("import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'mathsearch.settings'; django.setup();"
            "from threadpoolctl import threadpool_info;"
            "print(sorted({p['num_threads'] for p in threadpool_info() if p['user_api'] == 'blas'}))")
    run = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                         env={**os.environ, "MATHSEARCH_TORCH_THREADS": "1"})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[1]"
