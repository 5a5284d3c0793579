"""`python manage.py train_fusion --corpus NAME [--out DIR] [--epochs N]`: MaRF's fusion of words and formulas.

Trains the fusion contrastively on the corpus's (question, answer) pairs with the text and formula encoders
frozen, prints the held-out answer retrieval before and after, saves it (`models/fusion` by default, which
searches load), and stores the fused vector of every post of the corpus under the new weights. Other corpora
get theirs when they are indexed again.
"""
import json
from pathlib import Path

import torch
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from ml.text.marf import save
from ml.text.marf_training import TrainingSettings, train
from searchapp.embedding import get_fusion
from searchapp.learning.marf import corpus_posts, question_answer_pairs, refresh_fused
from searchapp.management.corpus_names import require_corpus
from searchapp.models import Post

MIN_PAIRS = 20


class Command(BaseCommand):
    help = "Train MaRF's cross-attention fusion on a corpus's question-answer pairs and apply it to its posts."

    def add_arguments(self, parser):
        parser.add_argument("--corpus", required=True, help="an indexed corpus of thread pages (mse_html)")
        parser.add_argument("--out", type=Path, default=settings.MATHSEARCH_FUSION_DIR)
        parser.add_argument("--epochs", type=int, default=TrainingSettings.epochs)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--threads", type=int, default=2, help="torch threads (training is dense matrix work)")
        parser.add_argument("--cache", type=Path, default=settings.VAR_DIR / "fusion-cache",
                            help="where the posts' token vectors are kept between runs")

    def handle(self, *args, corpus: str, out: Path, epochs: int, seed: int, threads: int, cache: Path, **options):
        require_corpus(corpus)
        if epochs < 1:
            raise CommandError("--epochs must be at least 1")
        answers = Post.objects.filter(corpus__name=corpus, parent__isnull=False).count()
        if answers < MIN_PAIRS:
            raise CommandError(f"corpus {corpus!r} has {answers} question-answer pairs; training needs at least "
                               f"{MIN_PAIRS} (index thread pages with --format mse_html)")
        torch.set_num_threads(threads)
        posts = corpus_posts(corpus, cache, progress=self.stdout.write)
        pairs = question_answer_pairs(corpus, posts)
        self.stdout.write(f"training on {len(pairs)} question-answer pairs …")
        fusion, report = train(pairs, TrainingSettings(epochs=epochs, seed=seed), progress=self.stdout.write)
        report["corpus"] = corpus
        save(fusion, out, report)
        get_fusion.cache_clear()
        self.stdout.write(json.dumps({key: report[key] for key in ("pairs", "held_out", "held_out_mrr_untrained",
                                                                    "held_out_mrr")}))
        self.stdout.write(f"saved {out}; fused vectors stored for {refresh_fused(posts, fusion)} posts of {corpus!r}")
