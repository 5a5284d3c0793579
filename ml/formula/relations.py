"""Relation-type vocabularies of the graph forms (SLG, OPG) fed to the R-GCN encoders.

Every tree edge parent→child becomes a forward relation; SLG/OPG add the reverse
child→parent edge with its own relation type, so every node receives messages.
"""
NODE_TYPES = ("N", "V", "C", "F", "T", "M", "U", "O", "E", "*")
"""Node type letters; `E` marks an error/unknown node, `*` a bare operator symbol of an SLT."""

SLT_EDGE_LABELS = ("n", "a", "b", "o", "u", "c", "d", "e", "w")
MAX_OPT_POSITION = 8
"""OPT argument positions 0..7 get their own relation; later positions share position 7."""


def slt_relation(edge_label: str, reverse: bool = False) -> int:
    forward = SLT_EDGE_LABELS.index(edge_label)
    return forward + len(SLT_EDGE_LABELS) if reverse else forward


def opt_relation(edge_label: str, reverse: bool = False) -> int:
    forward = min(int(edge_label), MAX_OPT_POSITION - 1)
    return forward + MAX_OPT_POSITION if reverse else forward


NUM_SLT_RELATIONS = 2 * len(SLT_EDGE_LABELS)
NUM_OPT_RELATIONS = 2 * MAX_OPT_POSITION
