"""Index the starter corpus shipped in the repository, so a new site shows content at once."""
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job
from searchapp.models import IndexJob

STARTER_FILE = settings.BASE_DIR / "searchapp" / "starter" / "formulas.jsonl"


class Command(BaseCommand):
    help = "Index searchapp/starter/formulas.jsonl into the 'starter' corpus (skipped when already done)."

    def add_arguments(self, parser):
        parser.add_argument("--sync", action="store_true", help="index here instead of in a worker")

    def handle(self, *args, sync: bool, **options):
        if not STARTER_FILE.exists():
            raise CommandError(f"starter corpus not found at {STARTER_FILE}")
        finished = IndexJob.objects.filter(corpus__name="starter", path=str(STARTER_FILE.resolve()),
                                           state=IndexJob.State.DONE)
        if finished.exists():
            self.stdout.write("starter corpus already indexed")
            return
        job = start_index_job(STARTER_FILE, "jsonl", "starter", enqueue=not sync)
        if sync:
            job = run_job(job)
        self.stdout.write(f"starter corpus: index job {job.pk} ({job.progress} posts) {job.state}")
