"""A corpus's own ranker is a folder named after the corpus (`ranking.corpus_ranker_dir`): it goes with the corpus,
or a new corpus given the same name would be ranked by trees trained on another corpus's feedback."""
from __future__ import annotations

import shutil

from django.db import transaction
from django.db.models.signals import post_delete
from django.dispatch import receiver

from searchapp.models import Corpus
from searchapp.search.ranking import corpus_ranker_dir


@receiver(post_delete, sender=Corpus)
def remove_ranker_of_deleted_corpus(sender, instance: Corpus, **kwargs) -> None:
    """Once the deletion is committed: a rolled-back one keeps its ranker."""
    directory = corpus_ranker_dir(instance.name)
    transaction.on_commit(lambda: shutil.rmtree(directory, ignore_errors=True))
