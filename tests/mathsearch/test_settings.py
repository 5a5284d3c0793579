"""`manage.py check --deploy` finds nothing to warn about under production settings."""
import secrets
import subprocess
import sys

from tests.conftest import REPO


def test_check_deploy_is_clean_in_production(service_env):
    production = {"DEBUG": "false", "SECURE": "true", "SECRET_KEY": secrets.token_urlsafe(50),
                  "ALLOWED_HOSTS": "search.example.org"}
    # the browser tests' conftest sets DJANGO_ALLOW_ASYNC_UNSAFE for the whole session; production never would
    env = {name: value for name, value in service_env.items() if name != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    run = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=REPO,
                         env={**env, **production}, capture_output=True, text=True)
    assert run.returncode == 0 and "System check identified no issues" in run.stdout, run.stdout + run.stderr
