"""The ARQMath-1 Task 2 development split as one object: the setting DESIGN.md §5 reports baselines in.

29 judged topics (the 45 official ones are held back as a blind test set), their query LaTeX, and the content of
every judged visual id. Paths are relative to the shared data folder (`../shared/data` beside the repository).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from corpora.qrels import read_qrels
from corpora.ranking import Qrels
from corpora.tolerant import Problem
from corpora.topic_latex import read_topic_latex
from corpora.visual_ids import VisualIdRecord, read_visual_ids

QRELS_FILE = "arqmath/qrels/qrels.arqmath-2020-task2-dev-visual_ids.txt"
TOPICS_FILE = "arqmath/topics/topics.arqmath-2020-task2.txt"
VISUAL_IDS_FILE = "arqmath/arqmath1-task2-judged-formulas/visual_id_file.tsv"


@dataclass(frozen=True)
class DevSplit:
    qrels: Qrels
    topics_latex: dict[str, str]
    """All 85 ARQMath-1 query formulas; only the qrels topics are scored."""
    visual_ids: dict[str, VisualIdRecord]
    problems: dict[str, list[Problem]]
    """Unreadable lines per file (empty for the files as shipped)."""

    def doc_latex(self) -> dict[str, str | None]:
        return {visual_id: record.latex for visual_id, record in self.visual_ids.items()}

    def doc_texts(self) -> dict[str, tuple[str, str]]:
        """Each visual id as (notation, text): its LaTeX when known, else its SLT string."""
        return {visual_id: (record.formula.notation, record.formula.text)
                for visual_id, record in self.visual_ids.items()}


def load_dev_split(data_dir: str | Path) -> DevSplit:
    data_dir = Path(data_dir)
    qrels = read_qrels(data_dir / QRELS_FILE)
    topics = read_topic_latex(data_dir / TOPICS_FILE)
    visual_ids = read_visual_ids(data_dir / VISUAL_IDS_FILE)
    problems = {QRELS_FILE: qrels.problems, TOPICS_FILE: topics.problems, VISUAL_IDS_FILE: visual_ids.problems}
    return DevSplit(qrels.value, topics.value, visual_ids.value, problems)
