"""`python manage.py build_codebook --model DIR [--corpus PATH:FORMAT …]`: learn the retrieval codebook of a model.

The centroids are fitted to the node vectors the model gives the corpus formulas (by default the
formulas of ../shared/data it was trained on) and saved as DIR/codebook.safetensors.
"""
import itertools
import time
from pathlib import Path

import numpy as np
import torch
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from ml.embed import embed, load_default_model
from ml.retrieval.codebook import REPRESENTATIONS, fit_codebook, save_codebook
from ml.training.corpus import parse_formula, read_corpus_spec, unique

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

    def handle(self, *args, model, corpus, cells, per_cell, sample, seed, **options):
        torch.set_num_threads(settings.MATHSEARCH_TORCH_THREADS)
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
