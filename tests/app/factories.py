"""Builders the app tests share (plain functions and tables, like healthchecks' `hc/test.py`); fixtures stay in
conftest.py."""
import os
import re
import subprocess
import sys

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job
from searchapp.models import Feedback, Impression
from searchapp.search.query_keys import formula_text_key
from tests.conftest import REPO
from tests.ml.factories import formula_span, thread_page

FORMULAS = [
    r"x^2 + y^2 = z^2",
    r"a^2 + b^2 = c^2",
    r"\frac{a}{b} + \frac{c}{d}",
    r"\int_0^1 x^2 \, dx",
    r"\sum_{n=1}^{\infty} \frac{1}{n^2} = \frac{\pi^2}{6}",
    r"e^{i\pi} + 1 = 0",
    r"\sin^2 x + \cos^2 x = 1",
    r"x^2 + y^2 = z^2",
]

# Four threads whose answers the words, BM25 and formula channels each rank differently.
INTEGRAL, PRODUCT, EULER = r"\int_{0}^{1}x^{2}\,dx=\frac{1}{3}", r"p_{1}p_{2}\cdots p_{n}+1", r"e^{i\pi}+1=0"
PAGES = {
    "11_12.html": ("Eigenvalues of a symmetric matrix", "<p>Why are the eigenvalues of a symmetric real matrix real?</p>",
                   f"<p>Take an eigenvector v of the symmetric matrix with {formula_span(1, 'A^{T}=A')}; then the "
                   "eigenvalue equals its conjugate, so every eigenvalue of a symmetric matrix is real.</p>"),
    "21_22.html": ("Integral of a polynomial", "<p>How do I integrate a polynomial over the unit interval?</p>",
                   f"<p>Use the power rule: {formula_span(2, INTEGRAL)} "
                   "by the fundamental theorem of calculus.</p>"),
    "31_32.html": ("Infinitely many primes", "<p>Why are there infinitely many prime numbers?</p>",
                   f"<p>Euclid: multiply the primes and add one, {formula_span(3, PRODUCT)} "
                   "has a prime factor not in the list.</p>"),
    "41_42.html": ("Euler's identity", f"<p>Why is {formula_span(4, EULER)} true?</p>",
                   "<p>Write the exponential as its power series and compare it with the series of cosine and sine "
                   "at pi.</p>"),
}

# Three threads as the Answers tab shows them: the first title holds a formula.
QUESTION_PAGES = {"11_12.html": (f"Eigenvalues of {formula_span(4, 'A^{T}=A')}", *PAGES["11_12.html"][1:]),
                  "21_22.html": PAGES["21_22.html"], "31_32.html": PAGES["31_32.html"]}
EIGEN_QUESTION = "Are the eigenvalues of a symmetric matrix real when $A^T = A$?"

# The question-speed benchmark's threads: three questions, one with two answers (7 real posts), and questions to ask.
SPEED_PAGES = {
    "11_12.html": ("Sum of squares", f"<p>Is {formula_span(1, 'a^2+b^2')} a square? I tried small cases.</p>",
                   f"<p>Yes: {formula_span(2, '3^2+4^2=5^2')}. Pythagorean triples give more.</p>"),
    "11_13.html": ("Sum of squares", f"<p>Is {formula_span(1, 'a^2+b^2')} a square? I tried small cases.</p>",
                   f"<p>Not always: {formula_span(3, '1^2+1^2=2')} is not.</p>"),
    "21_22.html": ("An integral", f"<p>How do I compute {formula_span(4, 'int_0^1 x^2 dx')}? It looks easy.</p>",
                   f"<p>Use the power rule: {formula_span(5, 'x^3/3')}. Evaluate at the bounds.</p>"),
    "31_32.html": ("A limit", f"<p>Find {formula_span(6, 'lim_{n} (1+1/n)^n')}. Why is it e?</p>",
                   f"<p>Take logarithms: {formula_span(7, 'n log(1+1/n)')} tends to 1.</p>"),
}
SPEED_QUESTIONS = ["Is $x^2+y^2$ a square number?", "How do I integrate $t^2$ from 0 to 1?", "A limit of $(1+1/n)^n$"]

# Formulas with scripts and parts a pattern benchmark cuts into query variables.
PATTERN_FORMULAS = [r"x^{2} + 1", r"x^{3} - x", r"\frac{1}{n^2}", r"\frac{1}{x+1}", r"\frac{a}{b}", r"e^{i\pi} + 1 = 0",
                    r"\sqrt{x^{2}+1}", r"a_{n+1} = a_{n} + 2", r"\sum_{n=1}^{\infty} \frac{1}{n^2}", r"y_{1} + y_{2}"]

DEAD_DATABASE = "postgres://nobody@127.0.0.1:1/none"
DEAD_BROKER = "redis://127.0.0.1:1/0"


def index_formulas(path, lines=FORMULAS, corpus: str = "test", format: str = "latex"):
    """Lines of LaTeX (or records) written to `path` and indexed into a corpus, in this process; the finished job."""
    path.write_text("\n".join(lines) + "\n")
    return run_job(start_index_job(path, format, corpus, enqueue=False))


def write_thread_pages(folder, pages: dict) -> None:
    """Thread pages into `folder` (created): {"<question id>_<answer id>.html": (title, question html, answer html)}."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, (title, question, answer) in pages.items():
        question_id, answer_id = name.removesuffix(".html").split("_")
        (folder / name).write_text(thread_page(question, answer, title=title)
                                   .replace('question_id="11"', f'question_id="{question_id}"')
                                   .replace('answer_id="12"', f'answer_id="{answer_id}"'))


def index_thread_pages(folder, pages: dict, corpus: str = "threads"):
    """Write the pages and index them in this process; returns the finished job."""
    write_thread_pages(folder, pages)
    job = run_job(start_index_job(folder, "mse_html", corpus, enqueue=False))
    assert job.state == "done"
    return job


def index_threads(folder):
    """QUESTION_PAGES indexed as the corpus "threads"."""
    return index_thread_pages(folder, QUESTION_PAGES)


def log_page(query: str, formulas: list, clicked=(), teams: str = "", candidate: str = "", offset: int = 0,
             session: str = "s", seen: bool = True):
    """An impression of `formulas` (rows) for `query` that its person saw whole (`seen`; else only served), with
    clicks on the 0-based positions `clicked`."""
    ids = [f.pk for f in formulas]
    page = Impression.objects.create(corpus=formulas[0].corpus, query=query, query_key=formula_text_key(query),
                                     formula_ids=ids, seen=ids if seen else [],
                                     offset=offset, teams=teams, candidate=candidate, session_key=session)
    for i in clicked:
        Feedback.objects.create(query=query, formula=formulas[i], kind="click", rank=offset + i + 1, impression=page,
                                session_key=session)
    return page


def result_ids(html: str) -> list[int]:
    """The formula ids of a search page's results, in order."""
    return [int(i) for i in re.findall(r'<li class="result[^"]*"[^>]*data-formula="(\d+)"', html)]


def csrf_client() -> tuple[Client, str]:
    """A client that enforces CSRF like a browser, with the token the search page hands out."""
    client = Client(enforce_csrf_checks=True)
    client.get("/")
    return client, client.cookies["csrftoken"].value


def staff_user(username: str = "ada", password: str = "pw", **fields):
    """A staff member (a superuser too with `is_superuser=True`)."""
    return get_user_model().objects.create_user(username, password=password, is_staff=True, **fields)


UPLOAD = "/admin/searchapp/indexjob/upload/"
"""The staff page that uploads a corpus file or documents and starts its job."""


def latex_file(lines, name="f.txt") -> SimpleUploadedFile:
    """An upload of LaTeX formulas, one a line."""
    return SimpleUploadedFile(name, ("\n".join(lines) + "\n").encode(), content_type="text/plain")


def run_manage(*args, **env):
    """`manage.py` in a child process, with `env` over this process's environment."""
    return subprocess.run([sys.executable, "manage.py", *args], cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, **env})


NGINX_ADDRESS = "172.18.0.3"
"""The compose nginx's address on its network: with SECURE=true every request reaches the app from it."""


def through_nginx(forwarded_for: str) -> dict:
    """The request META a client gets through the compose nginx: nginx's REMOTE_ADDR, the `X-Forwarded-For` given."""
    return {"REMOTE_ADDR": NGINX_ADDRESS, "HTTP_X_FORWARDED_FOR": forwarded_for}
