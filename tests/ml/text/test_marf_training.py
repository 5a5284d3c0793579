import numpy as np
import torch

from ml.text.encoder import TEXT_DIM
from ml.text.marf import Fusion, load, save
from ml.text.marf_training import FusionPost, TrainingSettings, answer_mrr, train


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
