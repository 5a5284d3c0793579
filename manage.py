#!/usr/bin/env python
"""Django's command-line utility; configuration problems end in one line, not a traceback.

SIGUSR1 prints every thread's stack to stderr (faulthandler): a command that hangs shows where it waits.
"""
import faulthandler
import os
import signal
import sys


def main() -> int:
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    if sys.argv[1:2] == ["serve"]:
        from searchapp.management import stop_request

        stop_request.listen()  # before Django loads: a Ctrl-C during its start-up must not be lost
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mathsearch.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line
    from django.db import OperationalError

    from mathsearch.embedded import EmbeddedServiceError

    try:
        execute_from_command_line(sys.argv)
    except (ImproperlyConfigured, EmbeddedServiceError) as error:
        print(f"configuration error: {error}", file=sys.stderr)
        return 2
    except OperationalError as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        print(f"cannot reach the database: {reason}", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
