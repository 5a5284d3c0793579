"""`manage.py loadtest`: locust's clients against a live site, counted and timed; an unreachable site in one line."""
import socket

import pytest
from django.core.management import CommandError, call_command


def test_an_unreachable_site_is_one_line_error():
    with socket.socket() as sock:  # a port nobody listens on: bound, never listening
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        with pytest.raises(CommandError, match=rf"^{url} is unreachable: .*refused"):
            call_command("loadtest", "--url", url, "--clients", "2", "--seconds", "1")
