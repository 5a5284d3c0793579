"""Variant threads made from real ones, for benchmarks that need more posts than a collection has.

A variant thread starts from a real question and its answers. Each post keeps its number of sentences, and each
sentence is either its own (probability 1 − MIX) or one drawn from another real post of the same kind (questions
from questions, answers from answers), so the words, the post lengths and the formulas a post holds keep the real
distributions while no variant repeats a real post. Every formula of the thread is then written with its letters
renamed by one bijection chosen for the thread (x → t wherever x stands, so a formula stays consistent with itself
and with its thread), and in a share of the threads (NUMBER_RATE) its numbers changed too. Command names and the
arguments of commands that name things rather than hold math (`\\text{…}`, `\\begin{…}`, `\\operatorname{…}`) are
left alone, so what parsed still parses. Answers name their variant question as `parent`.

Deterministic for a seed. The output is the JSONL post format (`corpora.jsonl_posts`), one dict a post.
"""
from __future__ import annotations

import bisect
import random
import re
import string
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from corpora.records import IndexRecord, PostRecord
from mathparse.extraction import extract_formulas

MIX = 0.5
"""The share of a variant post's sentences drawn from other real posts."""
NUMBER_RATE = 0.3
"""The share of variant threads whose numbers are changed too."""
KEPT_LETTERS = frozenset("dei")
"""Letters never renamed: d of dx, Euler's e, the imaginary unit."""
VERBATIM = frozenset({"text", "textrm", "textit", "textbf", "mbox", "hbox", "mathrm", "operatorname", "mathbb",
                      "begin", "end", "label", "tag", "color", "textcolor"})
"""Commands whose brace argument is a name, not math: copied as it is."""
SPEC_ENVIRONMENTS = ("{array}", "{tabular}")
"""Environments whose `\\begin{…}` is followed by a column spec (`{cc}`), copied as it is too."""
_TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|[A-Za-z]|\d+|\s+|.", re.S)
_BOUNDARY = re.compile(r"(?<=[.?!])\s+|\n\s*\n")


@dataclass(frozen=True)
class Thread:
    question: PostRecord
    answers: tuple[PostRecord, ...]


def threads_of(records: Iterable[IndexRecord]) -> list[Thread]:
    """The questions of `records` with their answers (in the records' order; the first record of a post id counts).
    Answers whose question is not among the records are left out, as are posts that are neither."""
    questions: dict[str, PostRecord] = {}
    answers: dict[str, dict[str, PostRecord]] = {}
    for record in records:
        post = record.post
        if post.parent:
            answers.setdefault(post.parent, {}).setdefault(post.source_id, post)
        else:
            questions.setdefault(post.source_id, post)
    return [Thread(question, tuple(answers.get(source_id, {}).values())) for source_id, question in questions.items()]


def sentences(text: str) -> list[str]:
    """`text` cut after each sentence (`.`, `?` or `!` then a space) and at blank lines, never inside a formula;
    each piece keeps the space or paragraph break that followed it, so joining them gives `text` back."""
    formulas = extract_formulas(text)  # by start, none inside another: the one a boundary may fall in is bisected
    starts = [found.start for found in formulas]
    pieces, start = [], 0
    for boundary in _BOUNDARY.finditer(text):
        before = bisect.bisect_left(starts, boundary.start()) - 1
        if before < 0 or formulas[before].end <= boundary.start():
            pieces.append(text[start:boundary.end()])
            start = boundary.end()
    if start < len(text):
        pieces.append(text[start:])
    return [piece for piece in pieces if piece.strip()]


def letter_renaming(rng: random.Random) -> dict[str, str]:
    """A bijection of the lower-case and of the upper-case letters (KEPT_LETTERS map to themselves)."""
    renaming: dict[str, str] = {}
    for alphabet in (string.ascii_lowercase, string.ascii_uppercase):
        letters = [letter for letter in alphabet if letter not in KEPT_LETTERS]
        shuffled = letters[:]
        rng.shuffle(shuffled)
        renaming |= dict(zip(letters, shuffled))
    return renaming


def rename_formula(latex: str, renaming: dict[str, str], rng: random.Random | None = None) -> str:
    """`latex` with each letter written through `renaming`, and with `rng`, each number replaced by another of as
    many digits; command names and VERBATIM arguments kept."""
    out, verbatim_groups, depth, position = [], 0, 0, 0
    for token in _TOKEN.findall(latex):
        position += len(token)
        if depth:  # inside a verbatim argument
            depth += (token == "{") - (token == "}")
            out.append(token)
            continue
        if verbatim_groups and token == "{":
            verbatim_groups -= 1
            depth = 1
            out.append(token)
            continue
        if verbatim_groups and not token.isspace():
            verbatim_groups = 0  # `\text x`: no brace group follows
        if token.startswith("\\") and token[1:].rstrip("*") in VERBATIM:
            spec = token == "\\begin" and latex[position:].lstrip().startswith(SPEC_ENVIRONMENTS)
            verbatim_groups = 2 if spec else 1
            out.append(token)
        elif len(token) == 1 and token in renaming:
            out.append(renaming[token])
        elif token.isdigit() and rng is not None:
            low = 10 ** (len(token) - 1) if len(token) > 1 else 0
            out.append(str(rng.randint(low, 10 ** len(token) - 1)))
        else:
            out.append(token)
    return "".join(out)


def rename_text(text: str, renaming: dict[str, str], rng: random.Random | None = None) -> str:
    """`text` with every formula renamed (`rename_formula`) and the words between them kept."""
    pieces, last = [], 0
    for found in extract_formulas(text):
        pieces.append(text[last:found.start])
        source = text[found.start:found.end]
        inner = source.find(found.latex)
        pieces.append(source[:inner] + rename_formula(found.latex, renaming, rng) + source[inner + len(found.latex):]
                      if inner >= 0 else source)
        last = found.end
    return "".join(pieces) + text[last:]


class _Pool:
    """Every sentence of the real posts of one kind, to draw from."""

    def __init__(self, posts: Iterable[PostRecord]) -> None:
        self.sentences = [sentence for post in posts for sentence in sentences(post.body)]

    def mixed(self, body: str, rng: random.Random) -> str:
        own = sentences(body)
        if not self.sentences:
            return body
        mixed = [rng.choice(self.sentences) if rng.random() < MIX else sentence for sentence in own]
        return "".join(sentence if sentence[-1:].isspace() else sentence + " " for sentence in mixed).strip()


def variant_posts(threads: Sequence[Thread], count: int, seed: int = 0) -> Iterator[dict]:
    """`count` JSONL posts ({"id", "title", "body", "tags"} and an answer's "parent"): variant threads, each of a
    real thread drawn at random, its question first (ids `v1`, `v1a1`, …; the last thread may lose answers)."""
    if not threads:
        raise ValueError("no real threads to make variants of")
    rng = random.Random(seed)
    questions = _Pool(thread.question for thread in threads)
    answers = _Pool(answer for thread in threads for answer in thread.answers)
    made, number = 0, 0
    while made < count:
        number += 1
        thread = rng.choice(threads)
        renaming = letter_renaming(rng)
        numbers = random.Random(rng.random()) if rng.random() < NUMBER_RATE else None
        question = f"v{number}"
        yield {"id": question, "title": rename_text(thread.question.title, renaming, numbers),
               "body": rename_text(questions.mixed(thread.question.body, rng), renaming, numbers),
               "tags": list(thread.question.tags)}
        made += 1
        for index, answer in enumerate(thread.answers[:count - made], start=1):
            yield {"id": f"{question}a{index}", "parent": question,
                   "body": rename_text(answers.mixed(answer.body, rng), renaming, numbers)}
            made += 1
