"""`python manage.py reindex [--corpus NAME …] [--sync]`: rebuild corpora from their files, e.g. after a new model.

A new model (or parser) changes every stored vector and the codebook the postings point into, so the index is
rebuilt from the files its jobs read; without --corpus every corpus is, which lets the new codebook load.
"""
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from searchapp.health import BrokerUnavailable
from searchapp.indexing.actions import reindex_corpus
from searchapp.indexing.jobs import run_job
from searchapp.management.corpus_names import require_corpus
from searchapp.models import Corpus, IndexJob


class Command(BaseCommand):
    help = "Empty corpora and index their files again (all corpora unless --corpus is given)."

    def add_arguments(self, parser):
        parser.add_argument("--corpus", action="append", default=[], metavar="NAME", help="only this corpus")
        parser.add_argument("--sync", action="store_true", help="index here instead of in a worker")

    def handle(self, *args, corpus: list[str], sync: bool, **options):
        for name in corpus:
            require_corpus(name)
        corpora = Corpus.objects.filter(name__in=corpus) if corpus else Corpus.objects.all()
        jobs = []
        # Empty them all before any job runs: a corpus left holds postings to the old codebook. One transaction,
        # so queued jobs reach the workers only once every corpus is empty.
        try:
            with transaction.atomic():
                for chosen in corpora.order_by("name"):
                    started = reindex_corpus(chosen, enqueue=not sync)
                    jobs += started
                    self.stdout.write(f"{chosen.name}: {len(started)} index job(s)" + ("" if sync else " queued"))
        except BrokerUnavailable as error:
            raise CommandError(f"{error}, or re-index here with --sync; nothing was changed") from None
        failed = []
        for job in jobs if sync else ():
            job = run_job(job)
            self.stdout.write(f"job {job.pk} ({job.corpus.name}) {job.state}: {job.done} records, {job.failed} failed")
            if job.state == IndexJob.State.FAILED:
                failed.append(f"job {job.pk}: {job.message}")
        if failed:
            raise CommandError("; ".join(failed))
