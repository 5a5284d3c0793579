"""The formulas `bench_search` indexes: every real formula of the shared data first, then variants of them.

Real formulas come in a fixed order: the judged ARQMath-1 formulas and the ARQMath-1 collection sample, the
formulas of the ARQMath thread pages, then the English-Wikipedia formulas of `make wiki-formulas` when they
have been fetched. Each is parsed once and kept once by its SLT string (its visual key). Only when a larger
index is asked for than the real formulas fill are variants added: real formulas with their variables and
numbers renamed (`mathparse.augment.substitute_variables`), which keeps layout and operator structure.
"""
from __future__ import annotations

import itertools
import multiprocessing
import random
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from mathparse import to_slt_string, tree_from_slt_string
from mathparse.augment import substitute_variables
from ml.training.corpus import CorpusFormula, read_corpus, read_thread_formulas, read_wiki, slt_string_of
from searchapp.learning.judged_corpus import JUDGED
from searchapp.learning.thread_judgments import PAGES

WIKI_FILE = Path("var/training-data/en-wiki-formulae-good.json")
"""Where `make wiki-formulas` puts the Wikipedia formulas (relative to the project)."""
FORMULAS_PER_POST = 10
"""The benchmark groups its formulas into posts of this many, as a corpus of posts holds several formulas each."""
PARSE_CHUNK = 500


@dataclass
class BenchCorpus:
    strings: list[str]
    """Distinct SLT strings, real ones first."""
    sources: dict[str, int] = field(default_factory=dict)
    """Formulas taken from each source, and "variants"."""
    unparsed: Counter[str] = field(default_factory=Counter)
    """Real formulas the parser refused, per source (they are left out)."""


def real_sources(data_dir: Path, wiki_file: Path | None) -> list[tuple[str, Callable[[], Iterator[CorpusFormula]]]]:
    """(name, reader) of every real formula source, in the order the benchmark draws from them."""
    sources = [
        ("arqmath_judged", lambda: read_corpus(data_dir / JUDGED / "visual_id_file.tsv", "visual_ids")),
        ("arqmath_collection", lambda: read_corpus(data_dir / JUDGED / "formulas_slt_string.tsv", "slt_strings")),
        ("threads", lambda: read_thread_formulas(data_dir / PAGES)),
    ]
    if wiki_file is not None and wiki_file.is_file():
        sources.append(("wikipedia", lambda: read_wiki(wiki_file)))
    return sources


def bench_corpus(data_dir: Path, count: int, wiki_file: Path | None = None, seed: int = 0,
                 progress: Callable[[str], object] = print) -> BenchCorpus:
    """`count` distinct SLT strings: real formulas source by source until enough, then variants of them."""
    corpus = BenchCorpus([])
    chosen: dict[str, None] = {}
    with ProcessPoolExecutor(mp_context=multiprocessing.get_context("spawn")) as pool:  # not a fork of this
        # process: its threads and connections (a test's live server, the database's sockets) stay here
        for name, read in real_sources(data_dir, wiki_file):
            if len(chosen) >= count:
                break
            before, read_count = len(chosen), 0
            formulas = iter(read())
            while len(chosen) < count and (batch := list(itertools.islice(formulas, _batch_size(count - len(chosen))))):
                read_count += len(batch)
                for slt in pool.map(slt_string_of, batch, chunksize=PARSE_CHUNK):
                    if slt is None:
                        corpus.unparsed[name] += 1
                    elif len(chosen) < count:
                        chosen.setdefault(slt)
            corpus.sources[name] = len(chosen) - before
            progress(f"{name}: {read_count} formulas parsed, {corpus.sources[name]} new distinct taken,"
                     f" {corpus.unparsed[name]} unparsed")
    real = list(chosen)
    rng = random.Random(seed)
    while len(chosen) < count:
        tree = tree_from_slt_string(rng.choice(real))
        chosen.setdefault(to_slt_string(substitute_variables(tree, rng)))
    corpus.sources["variants"] = len(chosen) - len(real)
    corpus.strings = list(chosen)
    return corpus


def write_slt_tsv(strings: list[str], path: Path) -> None:
    """The `slt_tsv` file indexing reads: formula id, post id (FORMULAS_PER_POST a post), SLT string."""
    with open(path, "w", encoding="utf-8") as handle:
        for number, slt in enumerate(strings):
            handle.write(f"{number + 1}\t{number // FORMULAS_PER_POST + 1}\t{slt}\n")


def _batch_size(missing: int) -> int:
    """Parse about twice what is still missing (repeats and failures), so a small index parses little."""
    return min(max(2 * missing, 1000), 50_000)


