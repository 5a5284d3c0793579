"""Security headers: a Content-Security-Policy on every page (scripts and fonts from the site only), no framing,
and HTTPS-only settings when SECURE is on."""
import subprocess
import sys

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/", "/api/search?q=x", "/admin/login/", "/posts"])
def test_every_answer_carries_the_policy(client, path):
    response = client.get(path)
    policy = dict(part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";"))
    assert policy["script-src"] == "'self'" and policy["object-src"] == "'none'"
    assert policy["frame-ancestors"] == "'none'" and response["X-Frame-Options"] == "DENY"


def test_secure_mode_turns_on_https_redirect_hsts_and_secure_cookies(service_env):
    check = ("from django.conf import settings as s; print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, "
             "s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE)")
    run = subprocess.run([sys.executable, "manage.py", "shell", "-c", check], cwd=REPO, capture_output=True, text=True,
                         env={**service_env, "SECURE": "true"})
    assert run.stdout.splitlines()[-1].split() == ["True", "31536000", "True", "True"], run.stderr
