import numpy as np
import pytest

from ml.text import TEXT_DIM, text_encoder
from ml.text.encoder import MAX_TOKENS, THREADS, TextEncoder, dense_threads, model_dir, shorten_formulas
from ml.text.posts import body_span, post_text


@pytest.fixture(scope="module")
def encoder():
    return text_encoder()


def test_texts_are_unit_vectors_and_a_paraphrase_is_nearer_than_another_topic(encoder):
    vectors = encoder.embed(["How do I compute the limit of a sequence?", "Finding the limit of a sequence",
                             "Eigenvalues of a symmetric matrix are real"])
    assert vectors.shape == (3, TEXT_DIM) and np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2


def _torch_reference(texts):
    """The packaged model in torch, fp32, mean-pooled: what the int8 ONNX file was exported from."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    tokenizer, model = AutoTokenizer.from_pretrained(str(model_dir())), AutoModel.from_pretrained(str(model_dir())).eval()
    batch = tokenizer(texts, padding=True, truncation=True, max_length=MAX_TOKENS, return_tensors="pt")
    with torch.inference_mode():
        tokens = model(**batch).last_hidden_state  # (texts, tokens, TEXT_DIM)
    mask = batch["attention_mask"].unsqueeze(-1)
    pooled = ((tokens * mask).sum(1) / mask.sum(1)).numpy()
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def test_int8_vectors_keep_a_cosine_of_098_to_the_fp32_model(encoder):
    """On 400 thread-page posts the mean was 0.994 and the least 0.984 (docs/scaling.md)."""
    texts = ["How do I compute the limit of a sequence?",
             "Let $f(x) = x^2 + 1$. Show that $f$ has no real root, since $x^2 \\geq 0$ for every real $x$.",
             "Eigenvalues of a symmetric matrix are real " * 40]  # past MAX_TOKENS: the truncation agrees too
    cosines = (encoder.embed(texts) * _torch_reference(texts)).sum(axis=1)
    assert cosines.min() > 0.98, cosines


def test_a_texts_vectors_do_not_depend_on_the_texts_encoded_with_it(encoder):
    text = "Let $x^2+1$ be prime; show that x is even."
    spans = [[(4, 11)]]
    alone = encoder.encode([text], spans)[0]
    with dense_threads():
        among = encoder.encode(["A much longer text about the Riemann zeta function. " * 20, text, "short"],
                               [[], *spans, []])[1]
    assert np.array_equal(alone.vector, among.vector) and np.array_equal(alone.contexts, among.contexts)


def test_a_question_runs_on_one_thread_and_batch_work_on_two(encoder):
    encoder.embed(["one question"])
    with dense_threads():
        encoder.embed(["a post", "another post"])
    threads = {count: session.get_session_options().intra_op_num_threads for count, session in encoder._sessions.items()}
    assert threads == {1: 1, THREADS: THREADS}


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


def test_loading_the_model_writes_nothing_to_stderr(capfd):
    """Celery logs a worker's stderr as warnings: a progress bar there read as a fault at every worker start."""
    TextEncoder(model_dir()).embed(["a sentence"])
    assert capfd.readouterr().err == ""
