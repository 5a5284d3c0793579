import numpy as np
import torch

from ml.text.encoder import TEXT_DIM
from ml.text.fusion import Fusion, fuse_pairs, load, post_vector, save
from ml.text.fusion_training import FusionPost, TrainingSettings, answer_mrr, train


def unit_mean(tokens):
    mean = tokens.mean(axis=0)
    return mean / np.linalg.norm(mean)


def test_an_untrained_fusion_is_the_words_alone_whatever_the_formula():
    rng = np.random.default_rng(0)
    tokens = rng.normal(size=(7, TEXT_DIM)).astype(np.float32)
    fused = fuse_pairs(Fusion(), tokens, [rng.normal(size=(5, 64)).astype(np.float32), np.zeros((0, 64), np.float32)])
    assert fused.shape == (2, TEXT_DIM) and np.allclose(fused, unit_mean(tokens), atol=1e-5)
    assert np.allclose(post_vector(Fusion(), tokens, []), unit_mean(tokens), atol=1e-5)


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


def synthetic_pairs(count: int, seed: int) -> list[tuple[FusionPost, FusionPost]]:
    """Questions and answers whose words are noise and whose formulas share a hidden topic: only fusion can pair them."""
    rng = np.random.default_rng(seed)
    topics = rng.normal(size=(count, 64)).astype(np.float32)
    def post(topic):
        return FusionPost(rng.normal(size=(6, TEXT_DIM)).astype(np.float16),
                          [(topic + 0.3 * rng.normal(size=(4, 64))).astype(np.float32)])
    return [(post(topic), post(topic)) for topic in topics]


def test_training_teaches_the_fusion_to_pair_questions_with_answers_by_their_formulas(tmp_path):
    torch.set_num_threads(1)
    pairs = synthetic_pairs(300, seed=1)
    fusion, report = train(pairs, TrainingSettings(epochs=12, batch_size=32, learning_rate=1e-3), progress=lambda _: None)
    assert report["held_out_mrr"] > report["held_out_mrr_untrained"] + 0.3
    assert report["held_out_mrr"] > 0.6 and len(report["losses"]) == 12
    save(fusion, tmp_path, report)
    unseen = synthetic_pairs(40, seed=2)
    assert answer_mrr(load(tmp_path), unseen) == answer_mrr(fusion, unseen) > answer_mrr(Fusion(), unseen) + 0.3
