"""`python manage.py index_corpus PATH --format F --corpus NAME`: create an IndexJob and enqueue it."""
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from corpora.corpus_files import FORMATS, PAGE_READERS
from searchapp.health import BrokerUnavailable
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job
from searchapp.models import Corpus, IndexJob


class Command(BaseCommand):
    help = "Index a corpus file through the Celery workers (or in this process with --sync)."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="a file, or a folder (or a zip) of pages for --format mse_html")
        parser.add_argument("--format", required=True, choices=FORMATS)
        parser.add_argument("--corpus", required=True, help="corpus name (created if new)")
        parser.add_argument("--sync", action="store_true", help="index here instead of in a worker")

    def handle(self, *args, path: Path, format: str, corpus: str, sync: bool, **options):
        if not path.is_file() and not (format in PAGE_READERS and path.is_dir()):
            raise CommandError(f"{path} is a directory, not a file" if path.is_dir() else f"no such file: {path}")
        try:  # the checks the upload form makes: names go into URLs and the ranker's folder
            Corpus._meta.get_field("name").run_validators(corpus)
        except ValidationError as error:
            raise CommandError(f"corpus name {corpus!r}: {' '.join(error.messages)}") from None
        try:
            job = start_index_job(path, format, corpus, enqueue=not sync)
        except BrokerUnavailable as error:
            raise CommandError(f"{error}, or index here with --sync") from None
        self.stdout.write(f"index job {job.pk}: {path} into corpus {corpus!r}" + ("" if sync else ", in a worker"))
        if sync:
            with tqdm(unit="record", desc="reading", dynamic_ncols=True) as bar:
                job = run_job(job, lambda job: _show(bar, job))
            unchanged = f", {job.unchanged} documents unchanged, {job.removed} removed" if job.files_total is not None else ""
            self.stdout.write(f"{job.state}: {job.done} records indexed, {job.failed} failed, "
                              f"{job.formulas_added} new formulas, {job.formula_errors} formula errors{unchanged}")
            if job.state in (job.State.FAILED, job.State.CANCELLED):  # a script must not take either for done
                raise CommandError(f"index job {job.pk} {job.state}: {job.message}")


def _show(bar: tqdm, job: IndexJob) -> None:
    """The job's counters as committed: tqdm adds the rate and, once the total is known, the ETA. A documents
    upload counts the files of its listing (known from the start), a file of records its records."""
    documents = job.files_total is not None
    bar.set_description("indexing", refresh=False)
    bar.unit = "file" if documents else "record"
    bar.total = job.files_total if documents else job.total
    postfix = {"sections": job.done} if documents else {}
    bar.set_postfix(**postfix, formulas=job.formulas_added, failed=job.failed, refresh=False)
    done = job.files_read if documents else job.cursor
    if done > bar.n:
        bar.update(done - bar.n)
    else:
        bar.refresh()  # the total just counted
