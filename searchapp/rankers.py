"""A corpus's own rankers, trained on its people's feedback by the learning loop (`searchapp.live.loop`) or
by `train_ranker --feedback`: one `CorpusRanker` row each, and, while it may serve (under test or installed), its
weights in a folder under MATHSEARCH_CORPUS_RANKERS_DIR named by the row's id. This module is the only one that
reads or writes either: `CorpusRanker.objects` is its QuerySet.

A ranker's life: trained → under test → installed → replaced (by a newer installed one), or → discarded
(interleaving showed it no better); or trained → worse offline (recorded, its weights never kept). A corpus has at
most one ranker under test and one installed. Renaming a corpus changes nothing here; deleting one deletes its rows
(cascade) and, once that is committed, their folders.

It never imports `searchapp.models`, which imports it (the search pipeline asks `ranker_for`): its rows are reached
through the QuerySet, and the folder of a deleted row through the model's name.
"""
from __future__ import annotations

import datetime
import secrets
import shutil
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models.signals import post_delete
from django.dispatch import receiver

from ml.ranking.ranker import Ranker
from searchapp.search.ranking import Candidate, forget, read_cached, shipped_ranker


class RankerState(models.TextChoices):
    UNDER_TEST = "under test"
    INSTALLED = "installed"
    DISCARDED = "discarded"
    WORSE_OFFLINE = "worse offline"
    REPLACED = "replaced"


class CorpusRankerQuerySet(models.QuerySet[Any]):
    def of(self, corpus: str) -> CorpusRankerQuerySet:
        return self.filter(corpus__name=corpus)

    def ranker_for(self, corpus: str | None) -> Ranker | None:
        """The ranker a search of `corpus` uses: its own installed one, else the shipped one, else None."""
        return self.source(corpus)[1]

    def source(self, corpus: str | None) -> tuple[str, Ranker | None]:
        """Which ranker a search of `corpus` uses ("corpus", "shipped" or "none") and the ranker itself."""
        weights = self.of(corpus).filter(state=RankerState.INSTALLED).values_list("weights", flat=True).first() \
            if corpus else None
        own = read_cached(weights_dir(weights)) if weights else None
        if own is not None:
            return "corpus", own
        shipped = shipped_ranker()
        return ("shipped", shipped) if shipped is not None else ("none", None)

    def under_test(self, corpus: str):
        """The corpus's ranker under test (its row), if it has one."""
        return self.of(corpus).filter(state=RankerState.UNDER_TEST).first()

    def candidate_for(self, corpus: str | None) -> Candidate | None:
        """The corpus's candidate under test, with its weights, as interleaving uses it."""
        row = self.of(corpus).filter(state=RankerState.UNDER_TEST).values_list("candidate", "weights").first() \
            if corpus else None
        ranker = read_cached(weights_dir(row[1])) if row else None
        return Candidate(row[0], ranker) if row and ranker is not None else None

    def history(self, corpus: str) -> list[dict]:
        """The corpus's trainings, oldest first, each as `entry` shows it."""
        return [entry(row) for row in self.of(corpus).order_by("trained_at", "pk")]

    def decisions(self, corpus: str) -> list[dict]:
        """Interleaving's decisions on the corpus's candidates, oldest first."""
        return [row.decision for row in self.of(corpus).filter(decision__isnull=False).order_by("trained_at", "pk")]

    def last_trained_at(self, corpus: str) -> datetime.datetime | None:
        return self.of(corpus).order_by("-trained_at").values_list("trained_at", flat=True).first()

    def record_training(self, corpus_id: int, training: dict, ranker: Ranker | None = None,
                        report: dict | None = None, install: bool = False):
        """A training's row: worse offline without a `ranker`; else its weights (and `report`) saved in its folder,
        under test, or with `install` installed at once. `training` is its entry (when, on what, the offline
        numbers)."""
        trained_at = datetime.datetime.fromisoformat(training["at"])
        if ranker is None:
            return self.create(corpus_id=corpus_id, trained_at=trained_at, state=RankerState.WORSE_OFFLINE,
                               training=training)
        state = RankerState.INSTALLED if install else RankerState.UNDER_TEST
        with transaction.atomic():
            if install:
                self._replace_installed(corpus_id)
            row = self.create(corpus_id=corpus_id, trained_at=trained_at, state=state, training=training,
                              candidate=f"{training['at']}-{secrets.token_hex(3)}")  # trainings may share a second
            row.weights = str(row.pk)
            ranker.save(weights_dir(row.weights), report or {})
            row.save(update_fields=["weights"])
        return row

    def install(self, row, decision: dict) -> None:
        """Interleaving's `decision` for `row`: it ranks its corpus from now on, and the one installed before is
        replaced."""
        with transaction.atomic():
            self._replace_installed(row.corpus_id)
            row.state, row.decision = RankerState.INSTALLED, decision
            row.save(update_fields=["state", "decision"])

    def discard(self, row, decision: dict) -> None:
        """Interleaving's `decision` against `row`: recorded, and its weights removed."""
        row.decision = decision
        self._retire(row, RankerState.DISCARDED)

    def _replace_installed(self, corpus_id: int) -> None:
        for before in self.filter(corpus_id=corpus_id, state=RankerState.INSTALLED):
            self._retire(before, RankerState.REPLACED)

    def _retire(self, row, state: str) -> None:
        """A ranker that will never serve again: its state, and its folder gone once that is committed."""
        _remove_after_commit(row.weights)
        row.state, row.weights = state, ""
        row.save(update_fields=["state", "weights", "decision"])


def entry(row) -> dict:
    """A training as the loop reports it and the staff page lists it: its entry, its state and its candidate id."""
    return {**row.training, "outcome": row.state, **({"candidate": row.candidate} if row.candidate else {})}


def weights_dir(weights: str) -> Path:
    return settings.MATHSEARCH_CORPUS_RANKERS_DIR / weights


def _remove_after_commit(weights: str) -> None:
    """A rolled-back change keeps the folder; the path is taken now, under the settings of now."""
    if weights:
        directory = weights_dir(weights)
        transaction.on_commit(lambda: _remove(directory))


def _remove(directory: Path) -> None:
    shutil.rmtree(directory, ignore_errors=True)
    forget(directory)


@receiver(post_delete, sender="searchapp.CorpusRanker")
def remove_weights_of_deleted_ranker(sender, instance, **kwargs) -> None:
    """A deleted row (its corpus's deletion cascades to it) takes its folder with it."""
    _remove_after_commit(instance.weights)

