"""MaRF's representation-level fusion of a post's words with its formulas (Wang, Zheng & Kani; DESIGN.md §4).

    H = MHA(Q = E_ctx, K = E_formula, V = E_formula);  O = FFN_gate(H) ⊙ FFN(H) + E_ctx

E_ctx are the post's MiniLM token vectors, E_formula a formula's SLG node vectors. MaRF scores O by token-level
maxsim; here O is mean-pooled into one unit vector per (post, formula), the paper's passage-level variant, so a
post is stored as one vector: with one pooled query vector, the mean over a post's formulas of the cosines
(MaRF's multi-formula averaging) equals the dot product with the mean of its formulas' vectors, `Fusion.post_vector`.
Since O is pooled anyway, the gated FFN runs on the pooled H (each context token still attends over the formula):
token by token it cost ~230 MFLOP per (post, formula), six minutes for the thread pages' 76 k formulas and nine
minutes a training epoch. The last layer of FFN starts at zero, so an untrained fusion is the words alone.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
from safetensors.torch import load_file, save_file
from torch import nn

from ml.text.encoder import TEXT_DIM

WEIGHTS_FILE, CONFIG_FILE = "fusion.safetensors", "config.json"


@dataclass(frozen=True)
class FusionConfig:
    formula_dim: int = 64
    heads: int = 4
    hidden: int = 768


class Fusion(nn.Module):
    def __init__(self, config: FusionConfig = FusionConfig()) -> None:
        super().__init__()
        self.config = config
        self.attention = nn.MultiheadAttention(TEXT_DIM, config.heads, kdim=config.formula_dim,
                                               vdim=config.formula_dim, batch_first=True)
        out = nn.Linear(config.hidden, TEXT_DIM)
        nn.init.zeros_(out.weight)
        nn.init.zeros_(out.bias)
        self.ffn = nn.Sequential(nn.Linear(TEXT_DIM, config.hidden), nn.GELU(), out)
        self.gate = nn.Sequential(nn.Linear(TEXT_DIM, TEXT_DIM), nn.Sigmoid())

    def forward(self, context: torch.Tensor, context_mask: torch.Tensor, formula: torch.Tensor,
                formula_mask: torch.Tensor) -> torch.Tensor:
        """(batch, TEXT_DIM) unit vectors: O pooled over each context's tokens.

        context (b, n_c, TEXT_DIM) with mask (b, n_c) true for real tokens, or one context (1, n_c, …) shared by the
        batch's formulas; formula (b, n_f, formula_dim) with mask (b, n_f) true for real nodes. A row without formula
        nodes is its words alone.
        """
        has_formula = formula_mask.any(dim=1)
        weights = context_mask.float()[..., None]
        heard = self._heard(context, weights, formula, formula_mask | ~has_formula[:, None])
        return self._output(context, weights, heard, has_formula)

    def post_vector(self, tokens: np.ndarray, formulas: list[np.ndarray]) -> np.ndarray:
        """The mean of a post's fused (post, formula) vectors; a post without formulas is its pooled words.

        A method, so the site's searches and indexing call it on the fusion they were given without importing torch
        (a process that never loads a fusion, `manage.py healthcheck` say, starts without it)."""
        fused = fuse_pairs(self, tokens, formulas or [np.zeros((0, self.config.formula_dim), np.float32)])
        return fused.mean(axis=0)

    def shared_context(self, context: torch.Tensor, nodes: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """`forward` of len(lengths) formulas with one context (n_c, TEXT_DIM), every token real: their nodes
        (N, formula_dim) concatenated unpadded, formula by formula, `lengths` each one's count. The softmax runs over
        each formula's own nodes (segment reductions, as `ml.training.loss` does), where `forward` pads every formula
        to the largest of the batch: 4.5× the nodes of a thread post's formulas, in the scores, their mask and their
        softmax."""
        query = self._query(context[None])[0]  # (heads, n_c, formula_dim)
        scores = (query @ nodes.T).permute(2, 0, 1).contiguous()  # (N, heads, n_c)
        peak = torch.segment_reduce(scores, "max", lengths=lengths, axis=0).repeat_interleave(lengths, dim=0)
        exponents = (scores - peak).exp()
        totals = torch.segment_reduce(exponents, "sum", lengths=lengths, axis=0).repeat_interleave(lengths, dim=0)
        attended = (exponents / totals).mean(dim=2)  # (N, heads): softmax per formula, mean over the tokens
        pooled = torch.segment_reduce(attended[..., None] * self._values(nodes), "sum", lengths=lengths, axis=0)
        heard = self.attention.out_proj(pooled.reshape(len(lengths), TEXT_DIM))
        return self._output(context[None], torch.ones(1, len(context), 1), heard, lengths > 0)

    def _output(self, context: torch.Tensor, weights: torch.Tensor, heard: torch.Tensor,
                has_formula: torch.Tensor) -> torch.Tensor:
        """O pooled: the gated FFN of the pooled attention plus the words' mean, unit length (the words alone for a
        row without formula nodes)."""
        words = (context * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1)
        fused = self.gate(heard) * self.ffn(heard)
        return nn.functional.normalize(torch.where(has_formula[:, None], fused, torch.zeros_like(fused)) + words, dim=-1)

    def _heard(self, context: torch.Tensor, weights: torch.Tensor, formula: torch.Tensor,
               keys: torch.Tensor) -> torch.Tensor:
        """The attention's output (MHA, Q = context, K = V = formula) mean-pooled over the context's tokens.

        Written out from `self.attention`'s weights rather than calling it, so that the work is done once where
        MHA repeats it (`_query`). The pooling comes before the values and the output projection (both linear): the
        mean of softmax(q·k)·v over tokens is the mean attention times v. Against nn.MultiheadAttention on each
        (post, formula) this made fusing a post's formulas ~10× cheaper, pooling the attention another quarter, and
        the folded scores 1.4× again (13.7 → 9.9 ms a post of 16 formulas on one thread; the same vectors to 1e-7).
        """
        scores = self._query(context) @ formula[:, None].transpose(-1, -2)  # (b, heads, n_c, n_f)
        scores = scores.masked_fill(~keys[:, None, None, :], float("-inf"))
        token_weights = weights[:, None]  # (b or 1, 1, n_c, 1)
        attended = (scores.softmax(dim=-1) * token_weights).sum(dim=2) / token_weights.sum(dim=2).clamp(min=1)
        values = self._values(formula)  # (b, n_f, heads, size)
        pooled = (attended[:, :, None, :] @ values.transpose(1, 2))[:, :, 0]  # (b, heads, size)
        return self.attention.out_proj(pooled.reshape(pooled.shape[0], TEXT_DIM))

    def _query(self, context: torch.Tensor) -> torch.Tensor:
        """(b, heads, n_c, formula_dim): each head's queries met with its key projection. Per head, q·kᵀ =
        (c·W_qᵀ + b_q)(f·W_kᵀ + b_k)ᵀ; the terms without f are the same for every node of a formula and leave the
        softmax over its nodes unchanged, so the scores are (c·W_qᵀW_k + b_q·W_k)·fᵀ: the context meets the formulas
        in their 64 dimensions, once for all of them, with no key projection."""
        attention, heads, formula_dim = self.attention, self.config.heads, self.config.formula_dim
        size = TEXT_DIM // heads
        q_bias = attention.in_proj_bias.chunk(3)[0]
        w_q = attention.q_proj_weight.view(heads, size, TEXT_DIM)
        w_k = attention.k_proj_weight.view(heads, size, formula_dim)
        return (context[:, None] @ (w_q.transpose(1, 2) @ w_k) + q_bias.view(heads, 1, size) @ w_k) / size ** 0.5

    def _values(self, formula: torch.Tensor) -> torch.Tensor:
        """(…, n_f, heads, size): each node's value in every head."""
        heads = self.config.heads
        v_bias = self.attention.in_proj_bias.chunk(3)[2]
        values = formula @ self.attention.v_proj_weight.T + v_bias
        return values.view(*formula.shape[:-1], heads, TEXT_DIM // heads)


def padded(rows: list[np.ndarray], dim: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Stack variable-length (n_i, dim) matrices into (b, max n, dim) with a (b, max n) mask of real rows."""
    longest = max([len(row) for row in rows] + [1])
    batch = np.zeros((len(rows), longest, dim), dtype=np.float32)
    mask = np.zeros((len(rows), longest), dtype=bool)
    for i, row in enumerate(rows):
        batch[i, :len(row)] = row
        mask[i, :len(row)] = True
    return torch.from_numpy(batch), torch.from_numpy(mask)


@torch.inference_mode()
def fuse_pairs(fusion: Fusion, tokens: np.ndarray, formulas: list[np.ndarray]) -> np.ndarray:
    """(len(formulas), TEXT_DIM): one text's token vectors fused with each of its formulas' node vectors in turn."""
    if not formulas:
        return np.zeros((0, TEXT_DIM), np.float32)
    nodes = np.concatenate(formulas).astype(np.float32).reshape(-1, fusion.config.formula_dim)
    return fusion.shared_context(torch.from_numpy(np.ascontiguousarray(tokens, dtype=np.float32)),
                                 torch.from_numpy(nodes), torch.tensor([len(formula) for formula in formulas])).numpy()


def save(fusion: Fusion, directory: Path, report: dict) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    save_file({name: tensor.contiguous() for name, tensor in fusion.state_dict().items()}, str(directory / WEIGHTS_FILE))
    (directory / CONFIG_FILE).write_text(json.dumps({"config": asdict(fusion.config), "report": report}, indent=2) + "\n")


def load(directory: Path) -> Fusion:
    """The fusion saved in `directory` (FileNotFoundError without one)."""
    config = json.loads((directory / CONFIG_FILE).read_text())["config"]
    fusion = Fusion(FusionConfig(**config))
    fusion.load_state_dict(load_file(str(directory / WEIGHTS_FILE)))
    return fusion.eval()
