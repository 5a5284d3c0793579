"""`manage.py ensure_admin`: the admin account is created once, from the environment or with a generated password."""
import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def ensure_admin() -> str:
    out = StringIO()
    call_command("ensure_admin", stdout=out)
    return out.getvalue()


def test_a_generated_password_is_shown_once_and_works(monkeypatch):
    monkeypatch.delenv("ADMIN_USERNAME", raising=False)
    monkeypatch.delenv("ADMIN_PASSWORD", raising=False)
    password = re.search(r"created admin account 'admin' with password (\S+) ", ensure_admin()).group(1)
    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser and admin.check_password(password)
    assert ensure_admin().strip() == "admin account 'admin' exists"
    assert get_user_model().objects.count() == 1


def test_credentials_from_the_environment_are_used_and_the_password_not_printed(monkeypatch):
    monkeypatch.setenv("ADMIN_USERNAME", "root")
    monkeypatch.setenv("ADMIN_PASSWORD", "correct horse battery")
    printed = ensure_admin()
    assert "(from ADMIN_PASSWORD)" in printed and "correct horse" not in printed
    assert get_user_model().objects.get(username="root").check_password("correct horse battery")
