"""Graph pairings of In+Out §3 and the per-epoch views (sub-expressions, augmentations) they need.

A pair (reference, other) is not symmetric: each node of the reference graph is matched to its
maxsim node in the other graph of the same formula (positive) and of every other formula (negatives).
References are always the clean full graphs; the "other" side carries sub-expressions and the
optional augmentations.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from mathparse.augment import mask_attributes, sample_subexpression, substitute_substructures, substitute_variables
from mathparse.tree import Tree


@dataclass(frozen=True)
class PairKind:
    reference: str
    """A full graph: slg or opg."""
    other: str
    """A full graph or a sub-expression: slg, opg, slg-sub or opg-sub."""

    def other_view(self, augmented: bool) -> str:
        """The view the other side reads: a full graph becomes its augmented copy when augmentations are on."""
        return f"{self.other}-aug" if augmented and "-" not in self.other else self.other


SLG_SLGSUB, OPG_OPGSUB = PairKind("slg", "slg-sub"), PairKind("opg", "opg-sub")
SLG_OPG, OPG_SLG = PairKind("slg", "opg"), PairKind("opg", "slg")
SLG_OPGSUB, OPG_SLGSUB = PairKind("slg", "opg-sub"), PairKind("opg", "slg-sub")

CONDITIONS: dict[str, tuple[PairKind, ...]] = {
    "slg": (SLG_SLGSUB,),
    "opg": (OPG_OPGSUB,),
    "slg+opg": (SLG_OPG, OPG_SLG),
    "inner": (SLG_SLGSUB, OPG_OPGSUB, SLG_OPG, OPG_SLG),
    "outer": (SLG_OPG, OPG_SLG, SLG_OPGSUB, OPG_SLGSUB),
    "inner+outer": (SLG_SLGSUB, OPG_OPGSUB, SLG_OPG, OPG_SLG, SLG_OPGSUB, OPG_SLGSUB),
}

AUGMENTATIONS = ("substitute_variables", "substitute_substructures", "mask_attributes")

Augment = Callable[[Tree, random.Random], Tree]


def augmenter(names: Sequence[str], substructure_p: tuple[float, ...], mask_p: float) -> Augment | None:
    """The named augmentations applied in order, or None when there are none."""
    steps: dict[str, Augment] = {
        "substitute_variables": substitute_variables,
        "substitute_substructures": partial(substitute_substructures, p=substructure_p),
        "mask_attributes": partial(mask_attributes, p=mask_p),
    }
    chosen = [steps[name] for name in names]
    if not chosen:
        return None

    def augment(tree: Tree, rng: random.Random) -> Tree:
        for step in chosen:
            tree = step(tree, rng)
        return tree

    return augment


def view_names(kinds: Sequence[PairKind], augmented: bool) -> list[str]:
    """Every view a condition reads, references first, in a fixed order."""
    names = [kind.reference for kind in kinds] + [kind.other_view(augmented) for kind in kinds]
    return list(dict.fromkeys(names))


def make_views(slt: Tree, opt: Tree | None, names: Sequence[str], rng: random.Random,
               augment: Augment | None) -> dict[str, Tree | None]:
    """One formula's views for this epoch; every view of a missing OPT is None."""
    views: dict[str, Tree | None] = {}
    for name in names:
        base, _, variant = name.partition("-")
        tree = slt if base == "slg" else opt
        if tree is not None and variant == "sub":
            tree = sample_subexpression(tree, rng)
        if tree is not None and variant and augment is not None:
            tree = augment(tree, rng)
        views[name] = tree
    return views
