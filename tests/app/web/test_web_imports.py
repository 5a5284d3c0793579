"""A web process loads the site, never the offline side: a benchmark is a command's business."""
import os
import subprocess
import sys

from tests.conftest import REPO

CHECK = ("import django, sys\n"
         "django.setup()\n"
         "import mathsearch.urls, searchapp.admin\n"
         "print(*sorted(name for name in sys.modules if name.startswith('searchapp.benchmarks')))")


def _printed(code: str) -> str:
    """What `code` prints in a fresh Python process with the site's settings."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "mathsearch.settings"}
    run = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_the_site_imports_no_benchmark():
    assert _printed(CHECK).split() == []


def test_a_process_imports_torch_pyg_and_lightgbm_only_when_it_builds_a_model():
    """Every `manage.py` command imports the admin and through it the models' modules: torch, PyG and LightGBM (2.4,
    2.5 and 1.1 s of a start on this machine) wait for an encoder or a ranker, so `healthcheck`, `serve`'s supervisor
    and the other commands that never embed start without them."""
    check = ("import django, sys\n"
             "django.setup()\n"
             "import mathsearch.urls, searchapp.admin\n"
             "heavy = lambda: sorted({name.split('.')[0] for name in sys.modules} & {'torch', 'torch_geometric', 'lightgbm'})\n"
             "print(*heavy(), sep=',')\n"
             "from searchapp.embedding import get_model\n"
             "get_model()\n"
             "from pathlib import Path\n"
             "from ml.ranking.ranker import load\n"
             "load(Path('models/ranker'))\n"
             "print(*heavy(), sep=',')\n")
    assert _printed(check).splitlines() == ["", "lightgbm,torch,torch_geometric"]
