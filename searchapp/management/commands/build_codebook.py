"""`python manage.py build_codebook --model DIR [--corpus PATH:FORMAT …]`: learn the retrieval codebook of a model.

The centroids are fitted to the node vectors the model gives the corpus formulas (by default the
formulas of ../shared/data it was trained on) and saved as DIR/codebook.safetensors.

`build_codebook --from-index` instead fits the site's codebook to the index it serves: sized by the rule of
`ml.retrieval.codebook.side_for` from the postings stored, fitted on stored node vectors, and every stored
formula posted again under it. Running workers read the new file before their next chunk; searches read the
centroids from the database.
"""
import itertools
import time
from pathlib import Path

import torch
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from ml.embed import load_default_model
from ml.retrieval.codebook import POSTINGS_PER_CENTROID, CodebookError, save_codebook
from ml.training.corpus import parse_formula, read_corpus_spec, unique
from searchapp.indexing.codebook_fitting import IndexSizing, fit_to_formulas, fit_to_index, index_sizing

DATA = settings.BASE_DIR.parent / "shared" / "data" / "arqmath"
DEFAULT_CORPORA = [f"{DATA}/arqmath1-task2-judged-formulas/visual_id_file.tsv:visual_ids",
                   f"{DATA}/arqmath1-task2-judged-formulas/formulas_slt_string.tsv:slt_strings"]


class Command(BaseCommand):
    help = "Fit the k-means codebook (centroids per representation) that indexing and search use with a model."

    def add_arguments(self, parser):
        parser.add_argument("--model", type=Path, default=None, help="model directory (default: the site's)")
        parser.add_argument("--corpus", action="append", metavar="PATH:FORMAT", help="formula file (repeatable)")
        parser.add_argument("--cells", type=int, default=64, help="coarse centroids per representation")
        parser.add_argument("--per-cell", type=int, default=64, help="fine centroids per coarse one")
        parser.add_argument("--sample", type=int, default=300_000, help="node vectors to fit on, per representation")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--from-index", action="store_true",
                            help="fit the site's codebook to its index, sized from the postings, and post it again")
        parser.add_argument("--postings-per-centroid", type=int, default=POSTINGS_PER_CENTROID,
                            help="with --from-index: the mean posting list the codebook is sized for")
        parser.add_argument("--check", action="store_true",
                            help="with --from-index: say what the codebook holds now and what the rule gives; change "
                                 "nothing")

    def handle(self, *args, model, corpus, cells, per_cell, sample, seed, from_index, postings_per_centroid, check,
               **options):
        torch.set_num_threads(settings.MATHSEARCH_TORCH_THREADS)
        if from_index:
            if model or corpus:
                raise CommandError("--from-index fits the site's model (MATHSEARCH_MODEL_DIR) to its index: "
                                   "leave out --model and --corpus")
            return self._fit_to_index(sample, seed, postings_per_centroid, check)
        if check:
            raise CommandError("--check goes with --from-index")
        model_dir = model or Path(settings.MATHSEARCH_MODEL_DIR)
        encoder = load_default_model(model_dir)
        graphs = self._graphs(corpus or DEFAULT_CORPORA)
        started = time.perf_counter()
        codebook = fit_to_formulas(graphs, encoder, cells, per_cell, sample, seed)
        path = save_codebook(codebook, model_dir)
        self.stdout.write(f"{path}: {cells} × {per_cell} centroids per representation from {len(graphs)} formulas "
                          f"in {time.perf_counter() - started:.0f} s (fingerprint {codebook.fingerprint})")

    def _fit_to_index(self, sample: int, seed: int, per_centroid: int, check: bool) -> None:
        if per_centroid < 1:
            raise CommandError("--postings-per-centroid must be at least 1")
        try:
            if check:
                return self._print_sizing(index_sizing(per_centroid))
            fitted = fit_to_index(sample, seed, per_centroid)
        except CodebookError as error:
            raise CommandError(str(error)) from None
        side, postings = fitted.sizing.side, fitted.sizing.postings
        self.stdout.write(
            f"{fitted.path}: {side} × {side} centroids per representation for {postings:,} postings, "
            f"fitted on {fitted.nodes['slg']:,} + {fitted.nodes['opg']:,} stored node vectors in "
            f"{fitted.fit_seconds:.0f} s; the index posted again in {fitted.post_seconds:.0f} s "
            f"(fingerprint {fitted.fingerprint}).")

    def _print_sizing(self, sizing: IndexSizing) -> None:
        side, postings = sizing.side, sizing.postings
        self.stdout.write(
            f"{postings:,} postings a representation on {sizing.centroids:,} centroids "
            f"({postings // max(sizing.centroids, 1):,} formulas a list); the rule gives {side} × {side} = "
            f"{side * side:,} ({postings // (side * side):,} a list)")

    def _graphs(self, specs: list[str]) -> list:
        graphs, failed = [], 0
        for formula in unique(itertools.chain(*(self._read(spec) for spec in specs))):
            try:
                graphs.append(parse_formula(formula))
            except ValueError:
                failed += 1
        self.stdout.write(f"{len(graphs)} formulas parsed, {failed} skipped")
        return graphs

    def _read(self, spec: str):
        try:
            return read_corpus_spec(spec)
        except ValueError as error:
            raise CommandError(str(error)) from None
