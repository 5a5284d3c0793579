"""Contrastive training of MaRF's fusion on (question, answer) pairs of thread pages, encoders frozen.

Each step fuses a batch of questions and of their answers, each post with one of its formulas drawn at
random (MaRF's "up to six formulas" sampling, one per step), and pulls every question towards its own
answer against the batch's other answers (InfoNCE both ways). Pairs come from the pages' question–answer
links, never from relevance judgments. A held-out tenth of the pairs measures answer retrieval (MRR among
the held-out answers) before training, where the fusion is the words alone, and after.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from ml.text.encoder import TEXT_DIM
from ml.text.marf import Fusion, padded


@dataclass(frozen=True)
class FusionPost:
    tokens: np.ndarray
    """(n_tokens, TEXT_DIM) float16 MiniLM token vectors."""
    formulas: list[np.ndarray]
    """(n_nodes, formula_dim) SLG node vectors of each of its formulas."""


@dataclass(frozen=True)
class TrainingSettings:
    epochs: int = 4
    batch_size: int = 64
    learning_rate: float = 3e-4
    temperature: float = 0.1
    held_out: float = 0.1
    seed: int = 0


def train(pairs: list[tuple[FusionPost, FusionPost]], settings: TrainingSettings = TrainingSettings(),
          progress: Callable[[str], None] = print) -> tuple[Fusion, dict]:
    """The trained fusion and its report: held-out MRR before and after, the loss per epoch."""
    rng = random.Random(settings.seed)
    torch.manual_seed(settings.seed)
    order = list(range(len(pairs)))
    rng.shuffle(order)
    cut = max(1, int(len(pairs) * settings.held_out))
    held_out, training = [pairs[i] for i in order[:cut]], [pairs[i] for i in order[cut:]]
    fusion = Fusion()
    before = answer_mrr(fusion, held_out)
    optimiser = torch.optim.AdamW(fusion.parameters(), lr=settings.learning_rate)
    losses = []
    for epoch in range(1, settings.epochs + 1):
        rng.shuffle(training)
        fusion.train()
        total, steps = 0.0, 0
        for start in range(0, len(training) - 1, settings.batch_size):
            batch = training[start:start + settings.batch_size]
            if len(batch) < 2:
                continue
            questions = _fused(fusion, [question for question, _ in batch], rng)
            answers = _fused(fusion, [answer for _, answer in batch], rng)
            logits = questions @ answers.T / settings.temperature
            labels = torch.arange(len(batch))
            loss = (nn.functional.cross_entropy(logits, labels) + nn.functional.cross_entropy(logits.T, labels)) / 2
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total, steps = total + loss.item(), steps + 1
        fusion.eval()
        losses.append(round(total / max(steps, 1), 4))
        progress(f"epoch {epoch}/{settings.epochs}: loss {losses[-1]}, held-out MRR {answer_mrr(fusion, held_out):.4f}")
    report = {"pairs": len(pairs), "held_out": len(held_out), "losses": losses,
              "held_out_mrr_untrained": round(before, 4), "held_out_mrr": round(answer_mrr(fusion, held_out), 4),
              "settings": vars(settings)}
    return fusion, report


def _fused(fusion: Fusion, posts: list[FusionPost], rng: random.Random) -> torch.Tensor:
    context, context_mask = padded([post.tokens.astype(np.float32) for post in posts], TEXT_DIM)
    chosen = [rng.choice(post.formulas) if post.formulas else np.zeros((0, fusion.config.formula_dim), np.float32)
              for post in posts]
    formula, formula_mask = padded(chosen, fusion.config.formula_dim)
    return fusion(context, context_mask, formula, formula_mask)


def answer_mrr(fusion: Fusion, pairs: list[tuple[FusionPost, FusionPost]]) -> float:
    """Mean reciprocal rank of each question's own answer among the pairs' answers, by the posts' fused vectors."""
    questions = np.stack([_unit(fusion.post_vector(q.tokens.astype(np.float32), q.formulas)) for q, _ in pairs])
    answers = np.stack([fusion.post_vector(a.tokens.astype(np.float32), a.formulas) for _, a in pairs])
    scores = questions @ answers.T
    ranks = (scores > scores.diagonal()[:, None]).sum(axis=1) + 1
    return float(np.mean(1.0 / ranks))


def _unit(vector: np.ndarray) -> np.ndarray:
    return vector / max(float(np.linalg.norm(vector)), 1e-12)
