"""Pages of posts written to be slow, served by gunicorn (`bench_pages`): issue 51's 40 KB of unclosed `\\(`.

Each kind of post is indexed (as JSONL, through the real pipeline) into a corpus of its own, so that a page listing
posts lists that one only; an ordinary post is one of the kinds, to compare with in the same run. gunicorn serves
them as `make run` does (mathsearch/gunicorn.conf.py: 2 processes of 4 threads), except that a burst of searches waits
for a slot rather than being refused, so that every request is answered and timed. Each page of each post is fetched
`repeat` times one after another, then `parallel` times at once while an ordinary search is timed beside them.
"""
from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.db import connection

from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job
from searchapp.models import Occurrence

UNCLOSED = "\\(" * 20_000
"""40 KB of openers never closed: finding the formulas of a post that held them took 12 s a page (issue 51)."""
KINDS = {
    "ordinary": "Every point of the circle is at distance one from its centre, as the equation says. " * 20,
    "unclosed": UNCLOSED,
    "code-span": f"`{UNCLOSED}`",
    "html-code": f"<code>{UNCLOSED}</code>",
    "verb": f"\\verb|{UNCLOSED}|",
}
"""The middle of each kind's post, between two formulas of its own."""
REPEAT = 5
PARALLEL = 8
"""As many requests at once as `make run` has threads: the burst that made ordinary searches time out."""
TIMEOUT_SECONDS = 300
"""How long a request may take before it counts as unanswered (status 0): a guard against a hang, not a budget."""
START_SECONDS = 120


@dataclass(frozen=True)
class Target:
    """A kind's post as its pages reach it."""

    corpus: str
    post_id: int
    formula_id: int
    latex: str

    def pages(self) -> dict[str, str]:
        """Page name → path: its formula's page, a search and a question listing it, the posts listing, its page."""
        return {"formula": f"/formula/{self.formula_id}",
                "search": "/?" + urlencode({"q": self.latex, "corpus": self.corpus}),
                "questions": "/questions?" + urlencode({"q": f"Why is ${self.latex}$ true?", "corpus": self.corpus}),
                "posts": "/posts?" + urlencode({"tag": self.corpus}),
                "post": f"/post/{self.post_id}"}


def index_posts(folder: Path, kinds: dict[str, str] = KINDS) -> dict[str, Target]:
    """Each kind's post written to `folder` and indexed into a corpus named after it."""
    targets = {}
    for number, (kind, middle) in enumerate(kinds.items(), start=1):
        latex = f"x^{{2}} + y^{{2}} = {number}"
        body = f"Let ${latex}$ hold. {middle} So ${latex}$ again."
        path = folder / f"{kind}.jsonl"
        path.write_text(json.dumps({"id": kind, "title": f"The {kind} post", "body": body, "tags": [kind]}) + "\n")
        run_job(start_index_job(path, "jsonl", kind, enqueue=False))
        occurrence = Occurrence.objects.filter(post__corpus__name=kind).order_by("position").first()
        if occurrence is None:
            raise RuntimeError(f"the {kind} post was indexed without its formula")
        targets[kind] = Target(kind, occurrence.post_id, occurrence.formula_id, latex)
    return targets


def database_url() -> str:
    """DATABASE_URL of the database this process uses now (the benchmark's), for gunicorn's processes."""
    parts = urlsplit(settings.DATABASE_URL)
    return parts._replace(path="/" + connection.settings_dict["NAME"]).geturl()


@contextmanager
def served(database: str, **env: str) -> Iterator[str]:
    """gunicorn as `make run` starts it, over `database`, with `env` added to its environment; its base URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(Path(settings.BASE_DIR) / "mathsearch" / "gunicorn.conf.py")],
        cwd=settings.BASE_DIR, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "mathsearch.settings", "DATABASE_URL": database,
             "REDIS_URL": settings.REDIS_URL, "MATHSEARCH_ADDR": f"127.0.0.1:{port}", **env})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_SECONDS
        while fetch(base + "/healthz", timeout=5)[0] != 200:
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start within {START_SECONDS} s (exit code {server.poll()})")
            time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=60)


def fetch(url: str, timeout: float = TIMEOUT_SECONDS) -> tuple[int, float]:
    """(status, milliseconds) of a GET read to its end; status 0 if nothing answered."""
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as error:
        error.read()
        status = error.code
    except OSError:  # refused, reset or timed out
        status = 0
    return status, (time.perf_counter() - started) * 1000


def burst(urls: list[str]) -> list[tuple[int, float]]:
    """GETs of `urls` all at once; their (status, ms) in order."""
    with ThreadPoolExecutor(len(urls)) as pool:
        return list(pool.map(fetch, urls))


def timings(answers: list[tuple[int, float]]) -> dict:
    return {"p50_ms": round(statistics.median(ms for _, ms in answers)), "max_ms": round(max(ms for _, ms in answers)),
            "statuses": dict(Counter(str(status) for status, _ in answers))}


def benchmark(folder: Path, repeat: int = REPEAT, parallel: int = PARALLEL,
              progress: Callable[[str], object] = print) -> list[dict]:
    """One row a kind and page: its timings sequentially and in a burst, and the ordinary search's beside the burst."""
    targets = index_posts(folder)
    rows = []
    with served(database_url(), MATHSEARCH_SEARCH_QUEUE=str(parallel + 1),
                MATHSEARCH_QUEUE_SECONDS=str(TIMEOUT_SECONDS)) as base:
        ordinary = base + targets["ordinary"].pages()["search"]
        burst([ordinary] * PARALLEL)  # each process loads its encoders at its first search
        for kind, target in targets.items():
            for page, path in target.pages().items():
                progress(f"{kind} {page}")
                row = {"kind": kind, "page": page, "sequential": timings([fetch(base + path) for _ in range(repeat)])}
                if parallel:
                    *answers, meanwhile = burst([base + path] * parallel + [ordinary])
                    row |= {"parallel": timings(answers), "ordinary_search_meanwhile": timings([meanwhile])}
                rows.append(row)
    return rows
