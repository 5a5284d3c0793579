"""The `--corpus NAME` of the management commands: one check, so every command answers a typo the same way."""
from django.core.management.base import CommandError

from searchapp.models import Corpus


def require_corpus(name: str) -> None:
    """CommandError naming the corpora there are when none is named `name` (not an empty result, as if it had
    nothing)."""
    if unknown := Corpus.objects.unknown(name):
        raise CommandError(unknown)
