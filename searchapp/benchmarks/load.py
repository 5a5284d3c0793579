"""The load of `manage.py loadtest`, run by locust in a process of its own: `python -m searchapp.benchmarks.load`.

locust monkey-patches the standard library for gevent as it is imported (sockets, threads, `time.sleep`), which
would change the Django process under psycopg and the embedded servers' bookkeeping. So this module never imports
Django: the command starts it as a child with the URL, clients and seconds, and reads the one JSON line it prints.

Each client is a closed loop with no think time (N clients keep N requests in flight), the worst case a site of
this size meets: mostly formula searches on `/api/search`, a third of them for a formula of the corpus that an
earlier search returned ("more like this"); one request in six a question on `/api/posts` (words with `$…$`
formulas, answered by both); and one in twelve a page a user would open (the home page or a formula's).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from urllib.parse import urlencode

import gevent
from locust import FastHttpUser, constant, task
from locust.env import Environment

QUERIES = [
    r"x^2 + y^2 = z^2",
    r"\frac{a}{b} + \frac{c}{d}",
    r"\int_0^1 x^2 \, dx",
    r"\sum_{n=1}^{\infty} \frac{1}{n^2} = \frac{\pi^2}{6}",
    r"e^{i\pi} + 1 = 0",
    r"\sin^2 x + \cos^2 x = 1",
    r"\lim_{x \to 0} \frac{\sin x}{x} = 1",
    r"\sqrt{a^2 + b^2}",
    r"\binom{n}{k} = \frac{n!}{k!(n-k)!}",
    r"\int_{-\infty}^{\infty} e^{-x^2} \, dx = \sqrt{\pi}",
    r"(a + b)^n = \sum_{k=0}^{n} \binom{n}{k} a^k b^{n-k}",
    r"\frac{d}{dx} e^x = e^x",
    r"a_{n+1} = a_n + d",
    r"\log(xy) = \log x + \log y",
    r"f(x) = \sum_{n=0}^{\infty} \frac{f^{(n)}(0)}{n!} x^n",
    r"\det(AB) = \det(A)\det(B)",
    r"x = \frac{-b \pm \sqrt{b^2 - 4ac}}{2a}",
    r"\prod_{p} \frac{1}{1 - p^{-s}}",
    r"|a + b| \leq |a| + |b|",
    r"\nabla \cdot \mathbf{E} = \frac{\rho}{\varepsilon_0}",
]
"""Formulas people search for (the ARQMath topics' kind): sums, integrals, limits, identities."""
QUESTIONS = [
    r"How do I prove that $\sum_{n=1}^{\infty} \frac{1}{n^2} = \frac{\pi^2}{6}$?",
    r"Why is $\int_{-\infty}^{\infty} e^{-x^2} \, dx = \sqrt{\pi}$? I tried polar coordinates.",
    r"Show that $\lim_{x \to 0} \frac{\sin x}{x} = 1$ without L'Hopital's rule",
    r"Is $|a + b| \leq |a| + |b|$ true for complex numbers?",
    r"Find all integer solutions of $x^2 + y^2 = z^2$",
    r"How to compute the derivative of $\log(xy)$ with respect to $x$?",
]
"""Questions people ask (the ARQMath Task 1 kind): words around one formula."""

SEEN_LATEX_MAX = 200
"""Corpus formulas longer than this are not searched again: a real user pastes a formula, not a page of one."""


class Searcher(FastHttpUser):
    wait_time = constant(0)

    def on_start(self) -> None:
        self.seen: list[tuple[int, str]] = []  # (formula id, LaTeX) of hits this client was shown

    @task(6)
    def search_a_query(self) -> None:
        self.search(random.choice(QUERIES))

    @task(3)
    def search_a_formula_it_was_shown(self) -> None:
        self.search(random.choice(self.seen)[1] if self.seen else random.choice(QUERIES))

    @task(2)
    def ask_a_question(self) -> None:
        self.client.get("/api/posts?" + urlencode({"q": random.choice(QUESTIONS), "k": 10}), name="/api/posts")

    @task(1)
    def open_a_page(self) -> None:
        if self.seen and random.random() < 0.7:
            self.client.get(f"/formula/{random.choice(self.seen)[0]}", name="/formula/[id]")
        else:
            self.client.get("/", name="/")

    def search(self, latex: str) -> None:
        response = self.client.get("/api/search?" + urlencode({"q": latex, "k": 10}), name="/api/search")
        if response.status_code == 200:
            hits = [(hit["id"], hit["latex"]) for hit in response.json()["results"]
                    if hit["notation"] == "latex" and len(hit["latex"]) <= SEEN_LATEX_MAX]
            self.seen = (self.seen + hits)[-100:]


def run(url: str, clients: int, seconds: float) -> dict:
    """Run `clients` users for `seconds` against `url`; the totals, latency percentiles (ms) and status counts."""
    environment = Environment(user_classes=[Searcher], host=url.rstrip("/"))
    statuses: Counter[int] = Counter()
    environment.events.request.add_listener(lambda response, **_: statuses.update([response.status_code]))
    runner = environment.create_local_runner()
    runner.start(clients, spawn_rate=clients)
    gevent.spawn_later(seconds, runner.quit)
    runner.greenlet.join()
    total = environment.stats.total
    return {
        "url": url, "clients": clients, "seconds": seconds,
        "requests": total.num_requests, "successes": total.num_requests - total.num_failures,
        "success_rate": round(1 - total.fail_ratio, 5) if total.num_requests else 0.0,
        "requests_per_s": round(total.total_rps, 2),
        "latency_ms": {name: total.get_response_time_percentile(percent)
                       for name, percent in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99))},
        # status 0 is no answer at all (connection refused or reset, a timeout), as locust counts it
        "status_codes": {str(code): count for code, count in sorted(statuses.items())},
        "by_name": {name: {"requests": entry.num_requests, "p95_ms": entry.get_response_time_percentile(0.95)}
                    for (name, _), entry in sorted(environment.stats.entries.items())},
    }


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--clients", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    options = parser.parse_args(argv)
    sys.stdout.write(json.dumps(run(options.url, options.clients, options.seconds)) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
