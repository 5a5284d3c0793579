"""The question search (`searchapp.search.questions`): its modes, its channels and how they grow with a corpus."""
import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from searchapp.indexing.actions import reindex_corpus
from searchapp.models import Corpus, Formula, Occurrence, Post, StemCount
from searchapp.search import candidates, questions
from tests.app.factories import PAGES, index_thread_pages
from tests.ml.factories import formula_span

pytestmark = pytest.mark.django_db

@pytest.mark.parametrize("mode", ["ssemb", "text", "bm25"])
def test_answers_are_ranked_by_the_questions_words(threads, mode):
    results = Post.objects.search("Are the eigenvalues of a symmetric matrix always real?", k=3, mode=mode)
    assert results.hits[0].post.source_id == "12"
    assert {hit.post.source_id for hit in results.hits} <= {"12", "22", "32", "42"}  # answers only, never questions
    assert results.hits[0].post.parent.title == "Eigenvalues of a symmetric matrix"


@pytest.mark.parametrize("mode, channel", [("ssemb", False), ("text", False), ("formula", False), ("bm25", True)])
def test_only_the_bm25_mode_reads_the_full_text_channel_and_every_mode_shows_the_hits_bm25(threads, mode, channel):
    with CaptureQueriesContext(connection) as queries:
        results = Post.objects.search("Are the eigenvalues of a symmetric matrix always real?", k=2, mode=mode)
    rare_posts = [query for query in queries.captured_queries if "p.words @@" in query["sql"]]
    assert bool(rare_posts) == channel
    assert all(hit.parts["bm25"] >= 0 for hit in results.hits)  # read for the hits shown (NaN never shown)
    assert results.hits[0].parts["bm25"] > 0


def test_the_formula_mode_ranks_by_the_questions_formulas_and_names_the_matched_formula(threads):
    results = Post.objects.search(r"What is $\int_0^1 x^2 \, dx$ ?", k=3, mode="formula")
    best = results.hits[0]
    assert best.post.source_id == "22" and best.parts["formula"] > results.hits[1].parts["formula"]
    assert best.post.occurrences.filter(formula_id=best.formula_id, position=2).exists()


def test_an_answer_is_found_by_its_questions_formulas_and_highlights_only_its_own(threads):
    results = Post.objects.search(r"Is $e^{i\pi} + 1 = 0$ ?", k=4, mode="formula")
    best = results.hits[0]
    assert best.post.source_id == "42" and best.parts["formula"] > results.hits[1].parts["formula"]
    assert best.formula_id is None  # the answer has no formula of its own to highlight


def test_a_formula_that_cannot_be_read_is_reported_and_the_words_still_search(threads):
    results = Post.objects.search(r"Why infinitely many primes, $\frac{1$ ?", k=1, mode="ssemb")
    assert results.question.unread and "unbalanced_braces" in results.question.unread[0]["error"]
    assert results.hits[0].post.source_id == "32"


def test_without_a_trained_fusion_marf_falls_back_to_ssemb_and_says_so(no_fusion, threads):
    results = Post.objects.search("symmetric matrix eigenvalues", k=1, mode="marf")
    assert results.mode == "ssemb" and "marf" not in results.hits[0].parts
    assert Post.objects.filter(fused__isnull=False).count() == 0


def test_with_a_fusion_indexing_stores_marf_vectors_and_marf_ranks_by_them(trained_fusion, threads):
    assert Post.objects.filter(fused__isnull=False).count() == Post.objects.count() == 2 * len(PAGES)
    results = Post.objects.search("Are the eigenvalues of a symmetric matrix real? $A^T = A$", k=3, mode="marf")
    assert results.mode == "marf" and results.hits[0].post.source_id == "12"
    assert results.hits[0].score == results.hits[0].parts["marf"] > results.hits[1].parts["marf"]


def test_an_answer_holding_only_the_questions_common_words_still_scores_and_ranks_by_them(tmp_path):
    """The full-text channel reads only the posts holding the question's eight rarest stems; an answer found by the
    other channels holding a more common one has a BM25 of its own, shown and ranked by."""
    fruit = "apple banana cherry damson elderberry feijoa guava huckleberry"
    index_thread_pages(tmp_path / "pages", {
        **PAGES,
        "51_52.html": ("Fruit", "<p>Which fruit?</p>", f"<p>{fruit}.</p>"),
        "61_62.html": ("Lemons", "<p>Are lemons sour?</p>", "<p>A lemon is sour.</p>"),
    })
    question = f"{fruit} lemon"
    shown = {hit.post.source_id: hit.parts["bm25"] for hit in Post.objects.search(question, k=10, mode="ssemb").hits}
    assert shown["52"] > shown["62"] > 0.0 == shown["12"]
    ranked = [hit.post.source_id for hit in Post.objects.search(question, k=3, mode="bm25").hits]
    assert ranked[:2] == ["52", "62"]


TERMS = ["eigenvalu", "matrix", "prime", "integr", "seri", "absent"]


def _statistics(corpus: str | None) -> tuple[int, float, dict[str, int]]:
    with connection.cursor() as cursor:
        return questions._statistics(cursor, corpus, TERMS)


def _recounted(corpus: str | None) -> tuple[int, float, dict[str, int]]:
    """BM25's statistics counted from the posts themselves, as the triggers must keep them."""
    posts = Post.objects.filter(corpus__name=corpus) if corpus else Post.objects.all()
    sql, params = posts.order_by().values_list("id", flat=True).query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*), coalesce(avg(length(words)), 0) FROM searchapp_post WHERE id IN ({sql})",
                       params)
        documents, mean_length = cursor.fetchone()
        inner = cursor.mogrify(f"SELECT words FROM searchapp_post WHERE id IN ({sql})", params)
        cursor.execute("SELECT word, ndoc FROM ts_stat(%s) WHERE word = ANY(%s)", [inner, TERMS])
        return documents, pytest.approx(float(mean_length)), dict(cursor.fetchall())


def test_bm25_statistics_follow_the_posts_as_corpora_are_indexed_again_emptied_and_deleted(threads, tmp_path):
    assert _statistics("threads") == _recounted("threads") and _statistics("threads")[0] == 8
    assert _statistics("threads")[2]["eigenvalu"] == 2  # the question and its answer
    index_thread_pages(tmp_path / "again", PAGES)  # the same posts: stored once, counted once
    index_thread_pages(tmp_path / "more", {**PAGES, "51_52.html": ("Series", "<p>Does this series converge?</p>",
                                                                   "<p>Compare it with a geometric series.</p>")},
                       corpus="other")
    for corpus in ("threads", "other", None):
        assert _statistics(corpus) == _recounted(corpus)
    assert _statistics(None)[0] == 18 and _statistics(None)[2]["seri"] == 4  # the new thread, and 42 in each corpus

    reindex_corpus(Corpus.objects.get(name="other"), enqueue=False)  # emptied, to be indexed again
    assert _statistics("other") == (0, 0.0, {}) and _statistics(None) == _recounted(None)
    Corpus.objects.get(name="threads").delete()
    assert _statistics(None) == (0, 0.0, {}) and not StemCount.objects.exists()


@pytest.fixture
def own_copies_only(monkeypatch):
    """Each question formula shortlists its own copy only, and no formula by shared sub-expressions."""
    monkeypatch.setattr(questions, "FORMULA_SHORTLIST", 1)
    monkeypatch.setattr(candidates, "STRUCTURE_CANDIDATES", 0)


def test_every_formula_of_the_posts_best_by_words_is_scored_not_only_the_shortlisted(tmp_path, own_copies_only):
    cubic = r"\int_{0}^{2}t^{3}\,dt=4"
    index_thread_pages(tmp_path / "pages", {**PAGES, "61_62.html": (
        "Area under a cubic", "<p>What is the area under a cubic on the unit interval?</p>",
        f"<p>Integrate: {formula_span(6, cubic)}.</p>")})
    question = questions.read_question(r"What is the area under a cubic on the unit interval, as "
                                          r"$\int_0^1 x^2 \, dx = \frac{1}{3}$ is under a parabola?")
    scores = questions.score_posts(Post.objects.answers(), Formula.objects, question, None)
    cubic_answer = scores.ids.index(Post.objects.get(source_id="62").pk)
    assert scores.formula_alone[cubic_answer] == 0  # the channel never shortlisted its formula
    assert scores.formula[cubic_answer] > 0.3  # but the answer is among the best by words, so it is scored whole
    shown = {hit.post.source_id: hit.parts["formula"] for hit in Post.objects.search(question, k=5).hits}
    assert shown["62"] == pytest.approx(float(scores.formula[cubic_answer]))  # what SSEmb fused is what is shown


def test_every_formula_of_the_posts_best_by_their_shortlisted_formulas_is_scored_too(tmp_path, own_copies_only,
                                                                                    monkeypatch):
    product, factorial, cubes, squares = r"\prod_{k=1}^{n}k", r"n!=n(n-1)!", r"\sum_{k=1}^{n}k^{3}", r"\sum_{k=1}^{n}k^{2}"
    index_thread_pages(tmp_path / "pages", {**PAGES, "71_72.html": (
        "Three formulas", "<p>What are these?</p>",
        f"<p>{formula_span(7, product)}, {formula_span(8, factorial)} and {formula_span(9, cubes)}.</p>"),
        "81_82.html": ("Squares", "<p>And this?</p>", f"<p>{formula_span(10, squares)}.</p>")})
    monkeypatch.setattr(questions, "COMPLETED_POSTS", 1)  # the cubes of 72 are not a hit of the squares
    question = questions.read_question(f"Are the eigenvalues of a symmetric matrix real? Compare ${product}$, "
                                       f"${factorial}$ and ${squares}$.")
    scores = questions.score_posts(Post.objects.answers(), Formula.objects, question, None)
    three = scores.ids.index(Post.objects.get(source_id="72").pk)
    assert int(np.argmax(scores.text)) != three  # not the best by words
    assert int(np.argmax(questions.ssemb(scores.formula_alone, scores.text))) == three  # the best by its hits
    assert scores.formula[three] > scores.formula_alone[three] + 0.01  # so its cubes were scored against the squares


def test_the_answers_of_the_questions_nearest_in_words_are_candidates(tmp_path, monkeypatch):
    index_thread_pages(tmp_path / "pages", {**PAGES, "51_52.html": (
        "An irrational root", "<p>Why is the square root of two irrational?</p>",
        "<p>Thanks, that settles it.</p>"), "61_62.html": (
        "Surds", "<p>What is a surd?</p>", "<p>An irrational root, such as the square root of two.</p>")})
    monkeypatch.setattr(questions, "CHANNEL_SIZE", 2)
    question = questions.read_question("Why is the square root of two irrational?")
    # an answer sharing no word with the question, but its question: the nearest posts are 62 and 51
    unrelated = Post.objects.get(source_id="52").pk
    alone = questions.score_posts(Post.objects.answers(), Formula.objects, question, None)
    threads = questions.score_posts(Post.objects.answers(), Formula.objects, question, None, threads=Post.objects.all())
    assert unrelated not in alone.ids and unrelated in threads.ids


def test_the_formula_channel_adds_the_holders_whose_own_formulas_score_best():
    # posts 1-3 hold formulas 10-12; two question formulas: post 2 is best for both, post 3 for the second only
    held = np.array([(1, 10), (2, 11), (3, 12), (3, 10)])
    hits = [{10: 0.2, 11: 0.9, 12: 0.1}, {10: 0.1, 11: 0.8, 12: 0.7}]
    assert questions._best_holders(held, hits, 2) == {2, 3}
    assert questions._best_holders(held, hits, 1) == {2}
    assert questions._best_holders(held, hits, 3) == {1, 2, 3}
    assert questions._best_holders(np.zeros((0, 2), dtype=np.int64), hits, 3) == set()



def test_a_formula_held_more_often_than_the_bound_lists_no_holders_but_still_scores_the_posts_found(threads,
                                                                                                   monkeypatch):
    held = Occurrence.objects.values_list("formula_id", flat=True)
    counts = {formula: list(held).count(formula) for formula in set(held)}
    common, rare = max(counts, key=counts.get), min(counts, key=counts.get)
    assert counts[common] > counts[rare]
    monkeypatch.setattr(questions, "COMMON_FORMULA", counts[rare])
    listed = questions._selective_holders(np.array([common, rare]))
    assert set(listed[:, 1].tolist()) == {rare}  # the common one is a stop formula: its holders are not listed
    assert sorted(map(tuple, listed.tolist())) == sorted(Occurrence.objects.filter(formula_id=rare)
                                                         .values_list("post_id", "formula_id"))
    holders = set(Occurrence.objects.filter(formula_id=common).values_list("post_id", flat=True))
    pairs = questions._held_formulas(holders, np.array([common]))
    assert set(pairs[:, 1].tolist()) == {common}  # of the posts' formulas, only the hits are read
    scores = questions._formula_scores(pairs, [{common: 0.9}], sorted(holders), [None] * len(holders))
    assert scores.tolist() == pytest.approx([0.9] * len(holders))  # found otherwise, a holder still scores by it
    completed = min(holders)
    whole = questions._held_formulas({completed})
    assert sorted(whole[:, 1].tolist()) == sorted(
        Occurrence.objects.filter(post_id=completed).values_list("formula_id", flat=True))  # every formula it holds


def test_the_formula_highlighted_is_the_posts_most_similar_the_lowest_id_of_equals():
    pairs = np.array([(1, 10), (1, 11), (2, 12), (2, 13), (3, 14)])
    hits = [{10: 0.2, 11: 0.9, 12: 0.5}, {13: 0.5, 14: 0.1}]
    assert questions._best_formulas(pairs, hits, [1, 2]) == {1: 11, 2: 12}


# The channels as a corpus grows: the posts nearest in words are ranked exactly in a small corpus, through the
# posts' HNSW index past WORDS_EXACT_BELOW (exactly again when the index's reach holds too few of the searched
# answers); the full-text channel reads a bounded number of posts however common the question's stems are.

QUESTION = "Are the eigenvalues of a symmetric matrix always real?"


@pytest.fixture
def nearest(tmp_path, monkeypatch):
    index_thread_pages(tmp_path / "pages", PAGES)
    monkeypatch.setattr(questions, "CHANNEL_SIZE", 2)
    vector = questions.read_question(QUESTION).vector

    def read() -> tuple[list[int], bool, bool]:
        """The nearest answers, whether the index was read, and whether every answer was scored."""
        with CaptureQueriesContext(connection) as queries:
            found = questions._nearest_in_words(Post.objects.answers(), vector, None)
        sql = [query["sql"] for query in queries.captured_queries]
        return found, any("near AS MATERIALIZED" in text for text in sql), any("scored AS MATERIALIZED" in text
                                                                                for text in sql)
    return read


def test_a_small_corpus_is_ranked_exactly(nearest):
    found, through_index, exactly = nearest()
    assert exactly and not through_index
    assert Post.objects.get(pk=found[0]).source_id == "12"  # the eigenvalue question's answer


def test_past_the_exact_size_the_index_finds_the_same_nearest_answers(nearest, monkeypatch):
    exact, _, _ = nearest()
    monkeypatch.setattr(questions, "WORDS_EXACT_BELOW", 1)
    found, through_index, exactly = nearest()
    assert through_index and not exactly
    assert found == exact


@pytest.mark.parametrize("wider_reach, exactly_after", [(questions.WORDS_WIDER_REACH, False), (2, True)],
                         ids=["found-further-through-the-index", "then-exactly"])
def test_too_few_answers_within_the_index_reach_are_looked_for_further_then_exactly(nearest, monkeypatch, wider_reach,
                                                                                   exactly_after):
    exact, _, _ = nearest()
    # the two posts nearest in words are the eigenvalue thread's question and answer: one answer only
    monkeypatch.setattr(questions, "WORDS_EXACT_BELOW", 1)
    monkeypatch.setattr(questions, "WORDS_REACH", 2)
    monkeypatch.setattr(questions, "WORDS_WIDER_REACH", wider_reach)
    with connection.cursor() as cursor:  # read through HNSW as in a large corpus (ef_search 2: two posts a pass)
        cursor.execute("SET enable_seqscan = off")
    found, through_index, exactly = nearest()
    assert through_index and exactly == exactly_after
    assert found == exact


MATRIX_PAGE = {"51_52.html": ("Matrix multiplication", "<p>How do I multiply a matrix by a vector?</p>",
                              "<p>Take the dot product of each row of the matrix with the vector.</p>")}
EIGEN_QUESTION = "Symmetric matrix eigenvalues"


@pytest.fixture
def full_text(tmp_path):
    index_thread_pages(tmp_path / "pages", {**PAGES, **MATRIX_PAGE})
    return lambda: {Post.objects.get(pk=post_id).source_id for post_id in
                    questions._lexical_scores(None, EIGEN_QUESTION)}


def test_the_posts_holding_any_of_the_rarest_stems_are_read(full_text):
    assert full_text() == {"11", "12", "51", "52"}


def test_when_the_rarest_stem_is_common_only_the_posts_holding_two_rare_stems_are_read(full_text, monkeypatch):
    monkeypatch.setattr(questions, "RARE_TERMS", 3)
    monkeypatch.setattr(questions, "RARE_POSTINGS", 1)  # every stem is "common" now
    # the matrix thread holds "matrix" only; the eigenvalue thread holds all three
    assert full_text() == {"11", "12"}


def test_the_channel_never_reads_more_than_its_bound(full_text, monkeypatch):
    monkeypatch.setattr(questions, "READ_AT_MOST", 1)
    assert len(full_text()) == 1


def test_a_stem_with_a_quote_is_one_lexeme():
    assert questions._lexeme("o'neil") == "'o''neil'"


def test_a_long_posts_vectors_stay_in_its_row_where_the_exact_scan_reads_them(tmp_path):
    """Long text goes to the TOAST table; the vectors every question search reads do not (migration 0024)."""
    letters = np.random.default_rng(0).choice(list("abcdefghijklmnopqrstuvwxyz "), size=9000)
    text = "".join(letters)  # random letters: Postgres cannot compress them into the row
    index_thread_pages(tmp_path, {"11_12.html": (text[:400], f"<p>{text[:4000]}</p>", f"<p>{text[4000:]}</p>")})
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*), count(pg_column_toast_chunk_id(body)), count(pg_column_toast_chunk_id(embedding)),"
                       " count(pg_column_toast_chunk_id(fused)), count(fused) FROM searchapp_post")
        posts, long_bodies, embeddings_out, fused_out, fused = cursor.fetchone()
    assert posts == long_bodies == 2 and fused == 2
    assert embeddings_out == fused_out == 0
