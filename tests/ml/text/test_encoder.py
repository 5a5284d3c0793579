import numpy as np
import pytest

from ml.text import TEXT_DIM, text_encoder
from ml.text.encoder import TextEncoder, model_dir, shorten_formulas
from ml.text.posts import body_span, post_text


@pytest.fixture(scope="module")
def encoder():
    return text_encoder()


def test_texts_are_unit_vectors_and_a_paraphrase_is_nearer_than_another_topic(encoder):
    vectors = encoder.embed(["How do I compute the limit of a sequence?", "Finding the limit of a sequence",
                             "Eigenvalues of a symmetric matrix are real"])
    assert vectors.shape == (3, TEXT_DIM) and np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2


def test_a_formulas_context_is_the_words_around_it(encoder):
    matrix = "The eigenvalues of a symmetric matrix are real and its eigenvectors are orthogonal. " * 3
    prime = "Every integer greater than one factors into primes, and the factorisation is unique. " * 3
    text = f"{matrix}$A^T = A$ {' filler' * 60} {prime}$p \\mid ab$"
    first, second = text.index("$A^T"), text.index("$p \\mid")
    post = encoder.encode([text], [[(first, first + 9), (second, second + 11)]])[0]
    topics = encoder.embed(["symmetric matrix eigenvalues", "prime factorisation of integers"])
    assert post.contexts.shape == (2, TEXT_DIM)
    assert post.contexts[0] @ topics[0] > post.contexts[0] @ topics[1]
    assert post.contexts[1] @ topics[1] > post.contexts[1] @ topics[0]


def test_a_formula_past_the_models_tokens_gets_the_posts_vector(encoder):
    text = "word " * 600 + "$x$"
    post = encoder.encode([text], [[(len(text) - 3, len(text))]])[0]
    assert np.allclose(post.contexts[0], post.vector)


def test_long_formulas_are_cut_and_their_places_follow():
    text = "see $" + "x" * 50 + "$ and $y$"
    short, spans = shorten_formulas(text, [(4, 56), (61, 64)], limit=10)
    assert short == "see $xxxxxxxxx and $y$" and spans == [(4, 14), (19, 22)]
    assert short[19:22] == "$y$"


def test_a_posts_text_puts_the_title_first_and_moves_body_places_after_it():
    text = post_text("Title", "body $x$")
    assert text == "Title\n\nbody $x$" and text[slice(*body_span("Title", 5, 8))] == "$x$"
    assert body_span("Title", 0, 0) == (0, 0)  # a formula of the title


def test_loading_the_model_writes_no_progress_bar(capfd):
    """Celery logs a worker's stderr as warnings: a bar there read as a fault at every worker start."""
    TextEncoder(model_dir())
    assert "Loading weights" not in capfd.readouterr().err
