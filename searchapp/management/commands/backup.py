"""`python manage.py backup [PATH]`: pg_dump the database (custom format) to PATH or var/backups/."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from searchapp.backup import BackupError, backup, default_path


class Command(BaseCommand):
    help = "Back up the database (embedded or DATABASE_URL) to a pg_dump custom-format file."

    def add_arguments(self, parser):
        parser.add_argument("path", nargs="?", type=Path,
                            help="the file to write (default: var/backups/<database>-<UTC time>.dump)")

    def handle(self, *args, path: Path | None, **options):
        try:
            written = backup(path or default_path())
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"backed up to {written} ({written.stat().st_size:,} bytes)")
