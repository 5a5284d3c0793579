"""Who holds the address `serve` is about to bind, and freeing it when that is a leftover of ours.

A web process orphaned by an earlier run (killed supervisor, a hung shutdown) keeps listening: the next start
then logged "Connection in use" forever and never became healthy. One of ours (a gunicorn or runserver process
started from this checkout) is stopped with one line saying so; another program is named, and left alone.
"""
from __future__ import annotations

from pathlib import Path

import psutil

STOP_SECONDS = 10.0


class AddressHeld(RuntimeError):
    """Another program listens on the address; the message names it."""


def free_address(addr: str, base_dir: Path) -> list[str]:
    """Stop this checkout's web processes listening on `addr` (host:port); returns a line for each one stopped.

    Raises AddressHeld when another program listens there.
    """
    host, _, port = addr.rpartition(":")
    holders = _listeners(host, int(port))
    ours = [process for process in holders if _is_our_web_process(process, base_dir)]
    others = [process for process in holders if process not in ours]
    if others:
        raise AddressHeld(f"{addr} is in use by {_describe(others[0])}; stop it, or serve elsewhere with --addr "
                          "or MATHSEARCH_ADDR")
    lines = [f"{addr} was held by a MathSearch web process left from an earlier run ({_describe(process)}); "
             "stopped it" for process in ours]
    for process in ours:
        process.terminate()
    _, alive = psutil.wait_procs(ours, timeout=STOP_SECONDS)
    for process in alive:
        process.kill()
    psutil.wait_procs(alive, timeout=STOP_SECONDS)
    return lines


def _listeners(host: str, port: int) -> list[psutil.Process]:
    """Processes listening on the port at `host` or at every address (a listener on 0.0.0.0 takes ours too)."""
    pids = {connection.pid for connection in psutil.net_connections("tcp")
            if connection.status == psutil.CONN_LISTEN and connection.laddr.port == port
            and connection.laddr.ip in {host, "0.0.0.0", "::", "localhost"} and connection.pid}
    processes = []
    for pid in sorted(pids):
        try:
            processes.append(psutil.Process(pid))
        except psutil.NoSuchProcess:
            continue
    return processes


def _is_our_web_process(process: psutil.Process, base_dir: Path) -> bool:
    try:
        command, cwd = " ".join(process.cmdline()), process.cwd()
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return False
    return Path(cwd) == Path(base_dir) and ("gunicorn" in command or "manage.py runserver" in command)


def _describe(process: psutil.Process) -> str:
    try:
        return f"pid {process.pid}: {' '.join(process.cmdline())[:120]}"
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return f"pid {process.pid}"
