"""This process's node-embedding model and its retrieval codebook, loaded once from MATHSEARCH_MODEL_DIR, and MaRF's
fusion of words and formulas from MATHSEARCH_FUSION_DIR."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from django.conf import settings


@lru_cache(maxsize=1)
def get_model():
    import torch

    from ml.embed import load_default_model

    # Measured on the 2-core machine: embedding runs ~10x faster on one thread than on two,
    # and a web or worker process never has the cores to itself.
    torch.set_num_threads(settings.MATHSEARCH_TORCH_THREADS)
    return load_default_model(settings.MATHSEARCH_MODEL_DIR)


def embed_graphs(graphs: list) -> list[dict]:
    """Per formula `{"slg": (n_slt, d), "opg": (n_opt, d)}` float32 node vectors, in tree pre-order."""
    if not graphs:
        return []
    from ml.embed import embed

    return embed(graphs, model=get_model())


@lru_cache(maxsize=1)
def get_codebook():
    """The retrieval codebook stored beside this process's model (see `ml.retrieval.codebook`), checked against the
    model's dimension as its config gives it: `serve`'s supervisor loads the codebook, and needs neither torch nor
    the model for that."""
    from ml.models.config import CONFIG_FILE, read_config
    from ml.retrieval.codebook import load_codebook

    model_dir = Path(settings.MATHSEARCH_MODEL_DIR)
    return load_codebook(model_dir, read_config(model_dir / CONFIG_FILE)[0].dim)


def node_labels(graphs) -> dict[str, list[str] | None]:
    """Labels of both trees in pre-order: the row order of `embed_graphs`' matrices (alignments name nodes by row)."""
    return {"slt": graphs.slt.labels, "opt": graphs.opt.labels if graphs.opt is not None else None}


def warm_up() -> None:
    """Load the model and codebook and embed one formula, and load the text encoder and the fusion and encode one
    sentence: a web process's first formula search would otherwise wait ~1.5 s for them, and its first question
    search 1.0–1.7 s against ~0.1–0.2 s for the next ones (measured)."""
    from mathparse import parse_latex
    from ml.text import text_encoder

    get_codebook()
    embed_graphs([parse_latex("x^2+1")])
    text_encoder().embed(["What is the sum of this series?"])
    get_fusion()


@lru_cache(maxsize=1)
def get_fusion():
    """The shipped fusion (`ml.text.marf`), or None when none is trained."""
    from ml.text.marf import CONFIG_FILE, load

    if not (settings.MATHSEARCH_FUSION_DIR / CONFIG_FILE).is_file():
        return None
    return load(settings.MATHSEARCH_FUSION_DIR)
