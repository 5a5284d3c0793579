"""The client's address, as the login lockout (django-axes, `AXES_CLIENT_IP_CALLABLE`) and the feedback rate limits
count it.

With `SECURE=true` the site runs behind the one nginx of `docker/nginx.conf`, so `REMOTE_ADDR` is nginx's address
for every client: five wrong passwords locked `admin` out for everyone. nginx sets `X-Forwarded-For` to the address
it accepted the connection from; only that last entry is trusted, so a client that sends its own header gains
nothing (an entry it forged comes before nginx's, never after). Without SECURE the app is its own edge and
`REMOTE_ADDR` is the client.
"""
from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    """The address of the client one trusted proxy hop away with SECURE, else `REMOTE_ADDR`."""
    remote = request.META.get("REMOTE_ADDR", "")
    if not settings.SECURE:
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").rpartition(",")[2].strip()
    try:
        return str(ipaddress.ip_address(forwarded))
    except ValueError:  # no header: a request from inside the deployment (a health check), not through nginx
        return remote
