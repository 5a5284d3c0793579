import multiprocessing
import os
import signal

import pytest
import torch

from ml.models.checkpoint import load_model
from ml.training.config import TrainConfig
from ml.training.corpus import CorpusFormula
from ml.training.state import STATE_FILE
from ml.training.trainer import train

TINY = dict(dim=16, layers=2, batch_size=8, learning_rate=0.01, min_count=1, hash_buckets=16)


def weights(model):
    return {name: tensor.detach().clone() for name, tensor in model.state_dict().items()}


def same_weights(a, b):
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize(
    "condition, augmentations",
    [
        pytest.param("inner+outer", [], id="inner+outer"),
        pytest.param("slg", [], id="slg"),
        pytest.param("opg", ["substitute_variables"], id="opg-variables"),
        pytest.param("outer", ["substitute_variables", "substitute_substructures", "mask_attributes"],
                     id="outer-all-augmentations"),
    ],
)
def test_loss_falls(corpus, tmp_path, condition, augmentations):
    items, parse = corpus
    config = TrainConfig(condition=condition, augmentations=augmentations, epochs=8, **TINY)
    result = train(config, items, tmp_path / "out", parse=parse)
    losses = [epoch.loss for epoch in result.epochs]
    assert len(losses) == 8 and losses[-1] < losses[0]
    assert all(epoch.formulas_per_second > 0 for epoch in result.epochs)


def test_oversized_formulas_are_counted(corpus, tmp_path):
    items, parse = corpus
    with pytest.raises(ValueError, match="got 0 \\(skipped: {'too_large': 21, 'invalid_slt_string': 1}\\)"):
        train(TrainConfig(epochs=1, max_nodes=2, **TINY), items, tmp_path / "out", parse=parse)


def test_skipped_counts(corpus, tmp_path):
    items, parse = corpus
    result = train(TrainConfig(epochs=1, **TINY), items, tmp_path / "out", parse=parse)
    assert result.formulas == 21 and dict(result.skipped) == {"invalid_slt_string": 1}


def test_too_few_formulas_is_a_clear_error(corpus, tmp_path):
    items, parse = corpus
    with pytest.raises(ValueError, match="need at least 2 usable formulas"):
        train(TrainConfig(epochs=1, **TINY), items[-2:], tmp_path / "out", parse=parse)


def test_same_seed_same_model_other_seed_other_model(corpus, tmp_path):
    items, parse = corpus
    runs = [train(TrainConfig(epochs=2, seed=seed, **TINY), items, tmp_path / f"run{i}", parse=parse)
            for i, seed in enumerate((1, 1, 2))]
    first, again, other = (weights(r.model) for r in runs)
    assert same_weights(first, again)
    assert not same_weights(first, other)


def test_resume_continues_exactly(corpus, tmp_path):
    items, parse = corpus
    straight = train(TrainConfig(epochs=3, **TINY), items, tmp_path / "straight", parse=parse)
    train(TrainConfig(epochs=1, **TINY), items, tmp_path / "resumed", parse=parse)
    resumed = train(TrainConfig(epochs=3, **TINY), items, tmp_path / "resumed", parse=parse)
    assert [e.epoch for e in resumed.epochs] == [1, 2]
    assert same_weights(weights(straight.model), weights(resumed.model))
    assert train(TrainConfig(epochs=3, **TINY), items, tmp_path / "resumed", parse=parse).epochs == []


def kill_at(epoch, step):
    """A progress callback that SIGKILLs its own process after that step: no cleanup, no flushing, like `kill -9`."""
    def progress(p):
        if (p.epoch, p.step) == (epoch, step):
            os.kill(os.getpid(), signal.SIGKILL)
    return progress


def test_a_run_killed_mid_epoch_resumes_at_its_last_checkpoint_and_ends_identical(corpus, tmp_path):
    items, parse = corpus
    # 21 formulas in batches of 8: 3 steps an epoch; checkpoints after step 2 of each epoch and at its end
    config = TrainConfig(epochs=3, checkpoint_every=2, schedule="cosine", warmup_steps=2,
                         augmentations=["substitute_variables", "mask_attributes"], **TINY)
    straight = train(config, items, tmp_path / "straight", parse=parse)
    killed = multiprocessing.get_context("fork").Process(
        target=train, args=(config, items, tmp_path / "resumed", kill_at(1, 3), parse))
    killed.start()
    killed.join()
    assert killed.exitcode == -signal.SIGKILL
    state = torch.load(tmp_path / "resumed" / STATE_FILE, weights_only=True)
    assert (state["epoch"], state["step"]) == (1, 2)
    resumed = train(config, items, tmp_path / "resumed", parse=parse)
    assert [e.epoch for e in resumed.epochs] == [1, 2]
    assert same_weights(weights(straight.model), weights(resumed.model))


def test_a_kill_while_writing_a_checkpoint_keeps_the_previous_one(corpus, tmp_path, monkeypatch):
    items, parse = corpus
    train(TrainConfig(epochs=1, **TINY), items, tmp_path / "out", parse=parse)
    before = (tmp_path / "out" / STATE_FILE).read_bytes()

    def dies_while_writing(state, handle):
        handle.write(b"half a checkpoint")
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr("ml.training.state.torch.save", dies_while_writing)
        with pytest.raises(KeyboardInterrupt):
            train(TrainConfig(epochs=2, **TINY), items, tmp_path / "out", parse=parse)
    assert (tmp_path / "out" / STATE_FILE).read_bytes() == before
    resumed = train(TrainConfig(epochs=2, **TINY), items, tmp_path / "out", parse=parse)
    straight = train(TrainConfig(epochs=2, **TINY), items, tmp_path / "straight", parse=parse)
    assert same_weights(weights(straight.model), weights(resumed.model))


def test_a_background_loader_trains_the_same_model(corpus, tmp_path):
    items, parse = corpus
    runs = [train(TrainConfig(epochs=2, loader_workers=workers, augmentations=["substitute_variables"], **TINY),
                  items, tmp_path / f"workers{workers}", parse=parse) for workers in (0, 1)]
    assert same_weights(*(weights(run.model) for run in runs))


def test_every_epoch_leaves_a_loadable_model(corpus, tmp_path):
    items, parse = corpus
    result = train(TrainConfig(epochs=1, **TINY), items, tmp_path / "out", parse=parse)
    assert (tmp_path / "out" / STATE_FILE).exists()
    assert same_weights(weights(load_model(tmp_path / "out")), weights(result.model))


def test_resume_with_other_options_is_refused(corpus, tmp_path):
    items, parse = corpus
    train(TrainConfig(epochs=1, **TINY), items, tmp_path / "out", parse=parse)
    with pytest.raises(ValueError, match=r"different options \['condition'\]"):
        train(TrainConfig(epochs=2, condition="slg", **TINY), items, tmp_path / "out", parse=parse)


def test_resume_on_another_corpus_is_refused(corpus, tmp_path):
    items, parse = corpus
    train(TrainConfig(epochs=1, **TINY), items, tmp_path / "out", parse=parse)
    with pytest.raises(ValueError, match="written training on 21 formulas, not 20"):
        train(TrainConfig(epochs=2, **TINY), items[1:], tmp_path / "out", parse=parse)


def test_a_state_from_the_per_epoch_trainer_is_refused(corpus, tmp_path):
    items, parse = corpus
    (tmp_path / "out").mkdir()
    torch.save({"epochs_done": 1, "optimizer": {}, "config": {}}, tmp_path / "out" / STATE_FILE)
    with pytest.raises(ValueError, match=r"another version of the trainer \(state version 1, this one writes 2\)"):
        train(TrainConfig(epochs=2, **TINY), items, tmp_path / "out", parse=parse)


def test_progress_reports_every_step(corpus, tmp_path):
    items, parse = corpus
    seen = []
    train(TrainConfig(epochs=2, **TINY), items, tmp_path / "out", progress=seen.append, parse=parse)
    assert [(p.epoch, p.step, p.steps) for p in seen] == [(e, s, 3) for e in range(2) for s in (1, 2, 3)]


def test_resume_may_change_epochs_threads_checkpoints_and_loader(corpus, tmp_path):
    items, parse = corpus
    train(TrainConfig(epochs=1, threads=1, **TINY), items, tmp_path / "out", parse=parse)
    resumed = train(TrainConfig(epochs=2, threads=2, checkpoint_every=1, loader_workers=1, **TINY), items,
                    tmp_path / "out", parse=parse)
    assert [e.epoch for e in resumed.epochs] == [1]
    assert torch.get_num_threads() == 2


def test_the_learning_rate_follows_the_schedule_across_epochs(corpus, tmp_path, monkeypatch):
    items, parse = corpus
    rates = []
    monkeypatch.setattr("ml.training.trainer.learning_rate",
                        lambda base, step, total, warmup, schedule: rates.append((step, total)) or base)
    train(TrainConfig(epochs=2, schedule="cosine", **TINY), items, tmp_path / "out", parse=parse)
    assert rates == [(step, 6) for step in range(6)]


def thread_formulas(items):
    """The corpus's formulas as two threads of thread pages (`question_answer.html:id`)."""
    return [CorpusFormula(item.text, item.kind, f"{index % 2}_{index}.html:{index}") for index, item in enumerate(items)]


def test_context_pairs_train_and_resume_exactly(corpus, tmp_path):
    items, parse = corpus
    context = thread_formulas(items)
    config = TrainConfig(epochs=2, context_weight=1.0, condition="opg", checkpoint_every=2, **TINY)
    plain = train(TrainConfig(epochs=2, condition="opg", **TINY), items, tmp_path / "plain", parse=parse)
    straight = train(config, items, tmp_path / "straight", parse=parse, context=context)
    assert not same_weights(weights(plain.model), weights(straight.model))
    train(TrainConfig(**{**config.to_dict(), "epochs": 1}), items, tmp_path / "resumed", parse=parse, context=context)
    resumed = train(config, items, tmp_path / "resumed", parse=parse, context=context)
    assert same_weights(weights(straight.model), weights(resumed.model))


def test_context_weight_without_threads_is_a_clear_error(corpus, tmp_path):
    items, parse = corpus
    with pytest.raises(ValueError, match="context_weight needs thread pages"):
        train(TrainConfig(epochs=1, context_weight=1.0, **TINY), items, tmp_path / "out", parse=parse)
