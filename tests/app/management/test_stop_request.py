import os
import signal

import pytest

from searchapp.management import stop_request


@pytest.fixture
def restored_handlers(monkeypatch):
    monkeypatch.setattr(stop_request, "requested", False)
    handlers = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    yield
    signal.signal(signal.SIGINT, handlers[0])
    signal.signal(signal.SIGTERM, handlers[1])


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_signal_is_remembered_and_raises_nothing(restored_handlers, signum):
    stop_request.listen()
    os.kill(os.getpid(), signum)  # a KeyboardInterrupt or the default SIGTERM would end this test here
    assert stop_request.requested is True
