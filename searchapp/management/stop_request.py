"""A Ctrl-C or SIGTERM for `serve`, remembered from its first instant: manage.py listens before Django loads.

Until `serve` installs its own handler (`StopSignals`), Python's default one raises KeyboardInterrupt wherever the
signal lands, and Django's start-up (the settings start the embedded servers, the apps import) runs finalisers in
which Python drops such an exception. A Ctrl-C there vanished, and serve went on to start and supervise the site.
This handler raises nothing; StopSignals reads what came and stops before anything starts.
"""
from __future__ import annotations

import signal

requested = False


def listen() -> None:
    signal.signal(signal.SIGINT, _remember)
    signal.signal(signal.SIGTERM, _remember)


def _remember(signum, frame) -> None:
    global requested
    requested = True
