"""A web process loads the site, never the offline side: a benchmark is a command's business."""
import os
import subprocess
import sys

from tests.conftest import REPO

CHECK = ("import django, sys\n"
         "django.setup()\n"
         "import mathsearch.urls, searchapp.admin\n"
         "print(*sorted(name for name in sys.modules if name.startswith('searchapp.benchmarks')))")


def test_the_site_imports_no_benchmark():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "mathsearch.settings"}
    run = subprocess.run([sys.executable, "-c", CHECK], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == []
