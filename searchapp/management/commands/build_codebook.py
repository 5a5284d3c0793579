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

import numpy as np
import torch
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from ml.embed import embed, load_default_model
from ml.retrieval.codebook import POSTINGS_PER_CENTROID, REPRESENTATIONS, CodebookError, fit_codebook, save_codebook, side_for
from ml.training.corpus import parse_formula, read_corpus_spec, unique
from searchapp.embedding import get_codebook
from searchapp.indexing.codebook import ensure_codebook_loaded, index_postings, stored_node_sample
from searchapp.models import SlgCentroid

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
        vectors = embed(graphs, model=encoder)
        rng = np.random.default_rng(seed)
        nodes = {r: np.concatenate([v[r] for v in vectors]) for r in REPRESENTATIONS}
        codebook = fit_codebook({r: m[rng.permutation(len(m))[:sample]] for r, m in nodes.items()},
                                cells, per_cell, seed=seed)
        path = save_codebook(codebook, model_dir)
        self.stdout.write(f"{path}: {cells} × {per_cell} centroids per representation from {len(graphs)} formulas "
                          f"in {time.perf_counter() - started:.0f} s (fingerprint {codebook.fingerprint})")

    def _fit_to_index(self, sample: int, seed: int, per_centroid: int, check: bool) -> None:
        if per_centroid < 1:
            raise CommandError("--postings-per-centroid must be at least 1")
        postings = index_postings()
        if not postings:
            raise CommandError("the index holds no postings: index a corpus first")
        side = side_for(max(postings.values()), per_centroid)
        if check:
            centroids = SlgCentroid.objects.count()
            self.stdout.write(
                f"{max(postings.values()):,} postings a representation on {centroids:,} centroids "
                f"({max(postings.values()) // max(centroids, 1):,} formulas a list); the rule gives {side} × {side} = "
                f"{side * side:,} ({max(postings.values()) // (side * side):,} a list)")
            return
        started = time.perf_counter()
        vectors = stored_node_sample(sample, postings, seed)
        try:
            codebook = fit_codebook(vectors, side, side, seed=seed)
        except CodebookError as error:
            raise CommandError(f"the index is too small for a codebook of {side} × {side}: {error}") from None
        path = save_codebook(codebook, Path(settings.MATHSEARCH_MODEL_DIR))
        fitted = time.perf_counter()
        get_codebook.cache_clear()
        ensure_codebook_loaded(repost=True)
        self.stdout.write(
            f"{path}: {side} × {side} centroids per representation for {max(postings.values()):,} postings, "
            f"fitted on {len(vectors['slg']):,} + {len(vectors['opg']):,} stored node vectors in "
            f"{fitted - started:.0f} s; the index posted again in {time.perf_counter() - fitted:.0f} s "
            f"(fingerprint {codebook.fingerprint}).")

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
