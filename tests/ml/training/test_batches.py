import dataclasses

import torch

from ml.models.features import NodeFeaturizer
from ml.training.batches import TrainingSteps, featurize_views
from ml.training.config import TrainConfig

CONFIG = TrainConfig(batch_size=8, augmentations=["substitute_variables", "mask_attributes"], seed=3)


def steps_of(corpus, config=CONFIG):
    items, parse = corpus
    graphs = [(p.slt, p.opt) for p in map(parse, items[:-1])]  # the last one does not parse
    featurizer = NodeFeaturizer.build([t for pair in graphs for t in pair if t is not None], 100, 1, 16)
    return TrainingSteps(graphs, featurizer, config)


def same_inputs(a, b):
    if a.formulas != b.formulas or a.forms.keys() != b.forms.keys():
        return False
    return all(x.views == y.views and x.sizes == y.sizes and torch.equal(x.owners, y.owners)
               and all(torch.equal(getattr(x.graphs, f.name), getattr(y.graphs, f.name))
                       for f in dataclasses.fields(x.graphs))
               for x, y in zip(a.forms.values(), b.forms.values()))


def test_a_step_depends_only_on_seed_epoch_and_step(corpus):
    steps = steps_of(corpus)
    later = steps[1, 2]
    fresh = steps_of(corpus)
    assert not same_inputs(fresh[0, 2], later) and not same_inputs(fresh[1, 1], later)
    assert same_inputs(fresh[1, 2], later)  # after other steps: nothing carries over from one to the next
    assert not same_inputs(steps_of(corpus, dataclasses.replace(CONFIG, seed=4))[1, 2], later)


def test_an_epoch_is_every_formula_once_in_a_new_order(corpus):
    steps = steps_of(corpus)
    assert steps.per_epoch == 3
    assert [inputs.formulas for inputs in steps.epoch(0, 0, workers=0)] == [8, 8, 5]
    assert sorted(steps.order(0)) == list(range(21)) and steps.order(0) != steps.order(1)


def test_a_background_worker_builds_identical_steps(corpus):
    steps = steps_of(corpus)
    here, there = list(steps.epoch(2, 1, workers=0)), list(steps.epoch(2, 1, workers=1))
    assert len(here) == len(there) == 2
    assert all(same_inputs(a, b) for a, b in zip(here, there))


def test_views_become_one_graph_batch_per_form(make_formula):
    slt, opt = make_formula("plus", "x", "y")
    other_slt, _ = make_formula("sup", "a", "b")
    views = [{"slg": slt, "opg": opt, "slg-sub": slt}, {"slg": other_slt, "opg": None, "slg-sub": other_slt}]
    featurizer = NodeFeaturizer.build([slt, opt, other_slt], 100, 1, 16)
    inputs = featurize_views(featurizer, views, ["slg", "opg", "slg-sub"])
    slg, opg = inputs.forms["slg"], inputs.forms["opg"]
    assert inputs.formulas == 2
    assert slg.views == ("slg", "slg-sub") and slg.sizes == (5, 5)
    assert slg.owners.tolist() == [0, 0, 0, 1, 1] * 2 and len(slg.graphs.value) == 10
    assert opg.views == ("opg",) and opg.sizes == (3,) and opg.owners.tolist() == [0, 0, 0]
