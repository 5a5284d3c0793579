import numpy as np
import torch

from ml.text.encoder import TEXT_DIM
from ml.text.marf import Fusion, fuse_pairs, padded


def unit_mean(tokens):
    mean = tokens.mean(axis=0)
    return mean / np.linalg.norm(mean)


def test_an_untrained_fusion_is_the_words_alone_whatever_the_formula():
    rng = np.random.default_rng(0)
    tokens = rng.normal(size=(7, TEXT_DIM)).astype(np.float32)
    fused = fuse_pairs(Fusion(), tokens, [rng.normal(size=(5, 64)).astype(np.float32), np.zeros((0, 64), np.float32)])
    assert fused.shape == (2, TEXT_DIM) and np.allclose(fused, unit_mean(tokens), atol=1e-5)
    assert np.allclose(Fusion().post_vector(tokens, []), unit_mean(tokens), atol=1e-5)


def test_the_written_out_attention_is_multihead_attention_mean_pooled_over_the_words():
    torch.manual_seed(0)
    fusion = Fusion().eval()
    context = torch.randn(1, 9, TEXT_DIM)
    formula = torch.randn(3, 6, 64)
    nodes = torch.tensor([[True] * 6, [True] * 4 + [False] * 2, [True] + [False] * 5])
    with torch.inference_mode():
        expected, _ = fusion.attention(context.expand(3, -1, -1), formula, formula, key_padding_mask=~nodes)
        heard = fusion._heard(context, torch.ones(1, 9, 1), formula, nodes)
    assert torch.allclose(heard, expected.mean(dim=1), atol=1e-5)


def test_formulas_sharing_a_context_fuse_unpadded_to_what_the_padded_batch_gives():
    torch.manual_seed(0)
    fusion = Fusion().eval()
    with torch.no_grad():  # a trained fusion: the last layer no longer zero, so the formulas count
        for parameter in fusion.parameters():
            parameter.normal_(0, 0.05)
    rng = np.random.default_rng(0)
    tokens = rng.normal(size=(11, TEXT_DIM)).astype(np.float32)
    formulas = [rng.normal(size=(n, 64)).astype(np.float32) for n in (6, 1, 0, 13)]
    with torch.inference_mode():
        context, context_mask = padded([tokens], TEXT_DIM)
        formula, formula_mask = padded(formulas, 64)
        expected = fusion(context, context_mask, formula, formula_mask).numpy()
    fused = fuse_pairs(fusion, tokens, formulas)
    assert fused.shape == (4, TEXT_DIM) and np.abs(fused - expected).max() < 1e-5
    assert np.allclose(fused[2], unit_mean(tokens), atol=1e-5)  # no nodes: the words alone
    assert not np.allclose(fused[0], unit_mean(tokens), atol=1e-2)
