"""`python manage.py restore PATH [--yes]`: replace the database's contents by a backup made with `backup`."""
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from searchapp.backup import BackupError, check_backup, restore


class Command(BaseCommand):
    help = ("Replace everything in the database by a backup made with `manage.py backup` (tables, pgvector, "
            "migration state). Stop the site first.")

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="a file written by `manage.py backup`")
        parser.add_argument("--yes", action="store_true", help="replace the database's contents without asking")

    def handle(self, *args, path: Path, yes: bool, **options):
        try:
            check_backup(path)
            if not yes:
                self.confirm(path)
            restore(path)
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"restored database {connection.settings_dict['NAME']!r} from {path}")

    def confirm(self, path: Path) -> None:
        """Asked only of a person at a terminal: a script must say --yes, never hang on a prompt or guess."""
        name = connection.settings_dict["NAME"]
        if not sys.stdin.isatty():
            raise CommandError(f"restore replaces everything in database {name!r}; pass --yes to do it")
        answer = input(f"This replaces everything in database {name!r} by the contents of {path}. "
                       "Type 'yes' to continue: ")
        if answer.strip() != "yes":
            raise CommandError("restore cancelled; nothing was changed")
