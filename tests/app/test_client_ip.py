"""The client's address: the last `X-Forwarded-For` entry (the one nginx wrote) with SECURE, else `REMOTE_ADDR`."""
import pytest
from django.test import RequestFactory

from searchapp.client_ip import client_ip
from tests.app.factories import NGINX_ADDRESS, through_nginx


@pytest.mark.parametrize("forwarded_for, address", [
    pytest.param("203.0.113.7", "203.0.113.7", id="nginx-set-it"),
    pytest.param("198.51.100.1, 203.0.113.7", "203.0.113.7", id="a-forged-entry-before-nginx's"),
    pytest.param("198.51.100.1,203.0.113.7", "203.0.113.7", id="no-space"),
    pytest.param("2001:DB8::1", "2001:db8::1", id="ipv6-written-one-way"),
    pytest.param("", NGINX_ADDRESS, id="no-header-from-inside-the-deployment"),
    pytest.param("203.0.113.7, not-an-address", NGINX_ADDRESS, id="not-an-address"),
])
def test_behind_the_proxy_the_last_hop_is_the_client(settings, forwarded_for, address):
    settings.SECURE = True
    assert client_ip(RequestFactory().get("/", **through_nginx(forwarded_for))) == address


def test_without_the_proxy_a_forwarded_header_is_the_clients_own_word(settings):
    """No proxy wrote it, so any client could: the connection's address is the only one to count."""
    settings.SECURE = False
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.9", HTTP_X_FORWARDED_FOR="203.0.113.7")
    assert client_ip(request) == "192.0.2.9"
