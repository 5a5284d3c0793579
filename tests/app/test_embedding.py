"""Every thread of a web or worker process runs torch on MATHSEARCH_TORCH_THREADS, whichever thread loaded the model:
`torch.set_num_threads` called off the main thread sets only that thread, and a worker whose warm-up thread loaded
the models ran its tasks on two threads, which waited on each other on a busy machine."""
import os
import subprocess
import sys

from tests.conftest import REPO

PROBE = """
import threading
import django
django.setup()
from searchapp.embedding import get_model
import torch
torch.get_num_threads()  # the main thread has used torch by the time a task runs
seen = []
warm_up = threading.Thread(target=lambda: (get_model(), seen.append(torch.get_num_threads())))
warm_up.start()
warm_up.join()
print(torch.get_num_threads(), seen[0])
"""


def test_a_task_runs_torch_on_the_configured_threads_when_another_thread_loaded_the_model():
    # as `serve` starts its children: without what this process's torch has set (OMP_*, and KMP_* of its OpenMP)
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("OMP_", "KMP_")) and name != "MATHSEARCH_TORCH_THREADS"}
    env["DJANGO_SETTINGS_MODULE"] = "mathsearch.settings"
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["1", "1"]
