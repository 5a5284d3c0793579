"""The admin login locks a username from one address after 5 wrong passwords (django-axes), with a page saying so;
behind nginx (SECURE) the address is the client's that nginx forwarded."""
import pytest
from axes.models import AccessAttempt
from django.test import Client

from tests.app.factories import staff_user, through_nginx

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/?next=/admin/"
RIGHT = "correct horse"


@pytest.fixture
def ada(db):
    return staff_user("ada", password=RIGHT)


def log_in(client, password, username="ada", address="10.0.0.1"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_a_right_password_before_the_limit_logs_in(client, ada):
    for _ in range(4):
        assert log_in(client, "wrong").status_code == 200  # the form again, with its error
    response = log_in(client, RIGHT)
    assert response.status_code == 302 and response.url == "/admin/"


def test_after_five_wrong_passwords_even_the_right_one_is_refused(client, ada):
    for _ in range(4):
        log_in(client, "wrong")
    fifth = log_in(client, "wrong")
    sixth = log_in(client, RIGHT)
    for response in (fifth, sixth):
        page = response.content.decode()
        assert response.status_code == 429 and "Too many failed logins" in page and "locked for 15 minutes" in page
    assert "_auth_user_id" not in client.session


def test_the_lock_holds_one_username_from_one_address(client, ada, django_user_model):
    staff_user("bob", password=RIGHT)
    for _ in range(5):
        log_in(client, "wrong")
    assert log_in(client, RIGHT, address="10.0.0.2").status_code == 302
    client.logout()
    assert log_in(client, RIGHT, username="bob").status_code == 302


def log_in_through_nginx(password, forwarded_for, client=None):
    return (client or Client()).post(LOGIN, {"username": "ada", "password": password}, **through_nginx(forwarded_for))


def test_behind_the_proxy_one_clients_lock_leaves_another_in(ada, settings):
    """Every request comes from nginx's address: counted by it, one guesser locked `ada` out for everyone."""
    settings.SECURE = True
    for _ in range(5):
        log_in_through_nginx("wrong", "203.0.113.7")
    assert log_in_through_nginx(RIGHT, "203.0.113.7").status_code == 429
    assert log_in_through_nginx(RIGHT, "198.51.100.2").status_code == 302
    assert AccessAttempt.objects.get().ip_address == "203.0.113.7"


def test_a_forged_forwarded_entry_does_not_escape_a_lock(ada, settings):
    """A client's own `X-Forwarded-For` comes before the entry nginx appends ($proxy_add_x_forwarded_for), or is
    replaced ($remote_addr): either way the last entry is still the locked client."""
    settings.SECURE = True
    for _ in range(5):
        log_in_through_nginx("wrong", "203.0.113.7")
    assert log_in_through_nginx(RIGHT, "198.51.100.2, 203.0.113.7").status_code == 429
