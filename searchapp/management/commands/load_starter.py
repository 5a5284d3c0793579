"""Load the starter corpus shipped in the repository, so a new site shows content at once."""
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from searchapp.corpora import load_posts

STARTER_FILE = settings.BASE_DIR / "searchapp" / "starter" / "formulas.jsonl"


class Command(BaseCommand):
    help = "Load (or refresh) the 'starter' corpus from searchapp/starter/formulas.jsonl."

    def handle(self, *args, **options):
        if not STARTER_FILE.exists():
            raise CommandError(f"starter corpus not found at {STARTER_FILE}")
        result = load_posts(STARTER_FILE, corpus_name="starter",
                            description="Well-known formulas with short explanations, shipped with MathSearch.")
        self.stdout.write(f"starter corpus: {result.created} new posts, {result.existing} already loaded, "
                          f"{len(result.errors)} errors")
        for error in result.errors[:10]:
            self.stderr.write(f"  line {error.line}: {error.message}")
