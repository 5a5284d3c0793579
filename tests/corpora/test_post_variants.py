import random
import re

import pytest

from corpora.post_variants import Thread, letter_renaming, rename_formula, sentences, threads_of, variant_posts
from corpora.records import IndexRecord, PostRecord
from mathparse import parse_latex
from mathparse.extraction import extract_formulas

QUESTION = PostRecord("1", "Is $x^2 \\geq 0$?", "Let $x$ be real. Is $x^2+1 > 2x$ true?\n\nI tried $(x-1)^2$.",
                      tags=["algebra"])
ANSWER = PostRecord("2", body="Yes. Expand $(x-1)^2 = x^2-2x+1 \\geq 0$. Done!", parent="1")
OTHER = PostRecord("3", "Sum of $\\frac{1}{n^2}$", "Why is $\\sum_n \\frac{1}{n^2} = \\frac{\\pi^2}{6}$? I know $e^{i\\pi}=-1$.")
OTHER_ANSWER = PostRecord("4", body="Use Parseval: $\\int_0^1 f(t)\\,dt$. It works.", parent="3")
THREADS = threads_of([IndexRecord(i, post, ()) for i, post in enumerate([QUESTION, ANSWER, OTHER, OTHER_ANSWER,
                                                                          PostRecord("5", parent="gone")])])


def test_threads_group_answers_under_their_question_and_drop_orphans():
    assert THREADS == [Thread(QUESTION, (ANSWER,)), Thread(OTHER, (OTHER_ANSWER,))]


def test_sentences_never_cut_a_formula_and_join_back_to_the_text():
    text = "Let $x. y$ be so. Then?\n\nNext: done"
    assert sentences(text) == ["Let $x. y$ be so. ", "Then?\n\n", "Next: done"]
    assert "".join(sentences(text)) == text


def test_sentences_cut_at_every_boundary_outside_the_formulas():
    """The formula a boundary may fall in is found by bisection (a post of 2,000 formulas and sentences was cut in
    quadratic time); it cuts where a check of every formula cuts, on seeded random posts."""
    rng = random.Random(7)
    pieces = ["Go. ", "Why? ", "$a. b$", "$$c! d$$", "\\(e. f\\)", "word ", "\n\n", "$x$. "]
    for _ in range(500):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        inside = [(found.start, found.end) for found in extract_formulas(text)]
        cuts = [boundary.end() for boundary in re.finditer(r"(?<=[.?!])\s+|\n\s*\n", text)
                if not any(low < boundary.start() < high for low, high in inside)]
        expected = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)]) if text[a:b].strip()]
        assert sentences(text) == expected, text


@pytest.mark.parametrize("latex, expected", [
    pytest.param("x^2+y", "t^2+u", id="letters"),
    pytest.param("\\frac{x}{y}", "\\frac{t}{u}", id="command-names-kept"),
    pytest.param("x \\text{if } x>y", "t \\text{if } t>u", id="text-kept"),
    pytest.param("\\begin{array}{cc} x & y \\end{array}", "\\begin{array}{cc} t & u \\end{array}", id="array-spec"),
    pytest.param("\\operatorname{rank}(x) + e^{i d}", "\\operatorname{rank}(t) + e^{i d}", id="kept-letters"),
])
def test_renaming_is_consistent_inside_a_formula_and_keeps_commands(latex, expected):
    assert rename_formula(latex, {"x": "t", "y": "u"}) == expected


def test_numbers_change_keeping_their_digits():
    renamed = rename_formula("x_{12} + 3", {}, random.Random(0))
    assert re.fullmatch(r"x_\{[1-9]\d\} \+ \d", renamed) and renamed != "x_{12} + 3"


def test_a_renaming_is_a_bijection_of_each_case():
    renaming = letter_renaming(random.Random(1))
    assert sorted(renaming) == sorted(renaming.values()) and all(renaming[c] == c for c in "dei" if c in renaming)
    assert all(key.islower() == value.islower() for key, value in renaming.items())


def test_variants_count_their_posts_link_answers_and_are_deterministic():
    posts = list(variant_posts(THREADS, 7, seed=3))
    assert len(posts) == 7 and posts == list(variant_posts(THREADS, 7, seed=3))
    assert posts != list(variant_posts(THREADS, 7, seed=4))
    questions = set()
    for post in posts:
        if "parent" in post:
            assert post["parent"] in questions  # its question came first
        else:
            questions.add(post["id"])
    assert len({post["id"] for post in posts}) == 7 and len(questions) == 4  # 3 whole threads and a question


def test_variants_keep_the_real_words_lengths_and_parsable_formulas():
    real_words = {word for post in (QUESTION, ANSWER, OTHER, OTHER_ANSWER) for word in _words(post.body)}
    posts = list(variant_posts(THREADS, 200, seed=0))
    for post in posts:
        assert _words(post["body"]) <= real_words
        for formula in extract_formulas(post["body"]) + extract_formulas(post.get("title", "")):
            parse_latex(formula.latex)
    formulas = [len(extract_formulas(post["body"])) for post in posts]
    assert 1.5 < sum(formulas) / len(formulas) < 3.5  # the real posts hold 1–3 formulas each
    real = {f.latex for post in (QUESTION, ANSWER, OTHER, OTHER_ANSWER) for f in extract_formulas(post.body)}
    variant = {f.latex for post in posts for f in extract_formulas(post["body"])}
    assert len(variant - real) > len(real)  # renamed: most are new formulas


def _words(text: str) -> set[str]:
    bare = text
    for formula in reversed(extract_formulas(text)):
        bare = bare[:formula.start] + " " + bare[formula.end:]
    return set(bare.split())


def test_variants_need_real_threads():
    with pytest.raises(ValueError, match="no real threads"):
        next(variant_posts([], 3))
