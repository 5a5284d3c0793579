"""Index jobs, the parts any worker may take of them, and the answers a part stored before their question."""
from __future__ import annotations

from django.db import models
from django.utils import timezone

from searchapp.models.corpora import Corpus
from searchapp.models.posts import Post


class IndexJob(models.Model):
    """Indexing of one corpus file; `cursor` (records done) lets a killed job resume where it stopped."""

    class State(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"
        CANCELLED = "cancelled"

    UNFINISHED = (State.PENDING, State.RUNNING)
    """States of a job that may still run: a worker that starts resumes it, and staff may cancel it."""

    class Format(models.TextChoices):
        JSONL = "jsonl", "JSONL posts"
        ARQMATH = "arqmath", "ARQMath formula TSV"
        VISUAL_IDS = "visual_ids", "visual_id_file.tsv"
        SLT_TSV = "slt_tsv", "Tangent SLT strings TSV"
        LATEX_LINES = "latex", "LaTeX, one formula per line"
        MSE_HTML = "mse_html", "Math StackExchange thread pages (HTML)"
        DOCUMENTS = "documents", "Documents: LaTeX, Markdown, notebooks, web pages (a file, a folder, a zip or a tar.gz)"

    FORMAT_HELP = {
        Format.JSONL: 'one <code>{"id", "title", "body", "url", "tags"}</code> a line, formulas written '
                      '<code>$…$</code> in the body; an answer\'s <code>"parent"</code> is its question\'s id.',
        Format.ARQMATH: "<code>id post_id thread_id type visual_id formula</code> a line after a header "
                        "(<code>latex_representation_v3</code>): each formula indexed under its post.",
        Format.VISUAL_IDS: "ARQMath-1's judged formulas, <code>visual_id, SLT string, LaTeX</code> a line.",
        Format.SLT_TSV: "<code>formula_id post_id slt</code> a line (ARQMath's "
                        "<code>formulas_slt_string.tsv</code>).",
        Format.LATEX_LINES: "each line a formula, and a post of its own.",
        Format.MSE_HTML: "a page, or a <code>.zip</code> of pages: each page's question (title, tags, text, "
                         "comments) and its answer.",
        Format.DOCUMENTS: "LaTeX papers or projects, Markdown notes, Jupyter notebooks, web pages with MathML, KaTeX "
                          "or MathJax; one file, or a folder as a <code>.zip</code>, or arXiv's <code>.tar.gz</code> "
                          "source. Each section becomes a post; a project's own macros are expanded and its "
                          "<code>\\input</code> files followed. Uploading a file of the same name again keeps the "
                          "corpus in sync with it: unchanged documents are skipped, changed ones replaced, and "
                          "those no longer in it removed.",
    }
    """What the upload page says of each format (markup): every one of `Format`, which the page lists."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="jobs")
    path = models.CharField(max_length=1000)
    format = models.CharField(max_length=20, choices=Format.choices)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    total = models.PositiveIntegerField(null=True, blank=True, help_text="records in the file; empty until the job, "
                                                                         "in the worker, has counted them")
    counted = models.PositiveIntegerField(default=0, help_text="records counted so far, while the job counts them")
    origin = models.CharField(max_length=1000, blank=True,
                              help_text="documents: what the documents are kept in sync with (SourceDocument.origin)")
    files_total = models.PositiveIntegerField(null=True, blank=True, help_text="documents: files in the upload")
    files_read = models.PositiveIntegerField(default=0, help_text="documents: files read or found unchanged")
    bytes_total = models.PositiveBigIntegerField(default=0, help_text="documents: bytes of those files")
    bytes_read = models.PositiveBigIntegerField(default=0)
    unchanged = models.PositiveIntegerField(default=0, help_text="documents found unchanged since their last indexing")
    removed = models.PositiveIntegerField(default=0, help_text="documents gone from the upload, and their posts")
    cursor = models.PositiveIntegerField(default=0, help_text="records processed so far")
    done = models.PositiveIntegerField(default=0, help_text="records indexed")
    failed = models.PositiveIntegerField(default=0, help_text="records that failed")
    formulas_added = models.PositiveIntegerField(default=0, help_text="new visually distinct formulas")
    formula_errors = models.PositiveIntegerField(default=0, help_text="formulas that could not be parsed")
    errors = models.JSONField(default=list, blank=True, help_text="the first 100 per-record errors")
    message = models.TextField(blank=True, help_text="why the job failed, or who cancelled it")
    timings = models.JSONField(default=dict, blank=True, help_text="seconds spent per stage")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"job {self.pk} {self.corpus} {self.state}"

    @classmethod
    def formats(cls) -> list[tuple[str, str, str]]:
        """(value, name, help) of every format, as the upload page lists them."""
        return [(value, name, cls.FORMAT_HELP[cls.Format(value)]) for value, name in cls.Format.choices]

    @property
    def record_unit(self) -> str:
        """What an error's number counts: thread pages are read page by page, documents section by section, every other
        format by line."""
        units: dict[str, str] = {self.Format.MSE_HTML: "page", self.Format.DOCUMENTS: "section"}
        return units.get(self.format, "line")

    @property
    def progress(self) -> str:
        """Records processed of all (a documents upload: files read of all), as lists and commands show it."""
        if self.files_total is not None:
            return f"{self.files_read} / {self.files_total} files"
        return f"{self.cursor} / {f'counting… ({self.counted} so far)' if self.total is None else self.total}"

    @property
    def planned(self) -> bool:
        """Whether its parts are made (`searchapp.indexing.parts`): a documents upload listed, a file's records
        counted."""
        return self.files_total is not None or self.total is not None

    @property
    def work(self) -> tuple[int, int | None]:
        """(done, total) of what its rate and ETA are measured in: bytes of a documents upload's listing, else records
        (total None until counted)."""
        if self.files_total is not None:
            return self.bytes_read, self.bytes_total
        return self.cursor, self.total

    @property
    def seconds(self) -> float | None:
        """How long the job ran (so far, while it runs); None before it starts."""
        if self.started_at is None:
            return None
        return ((self.finished_at or timezone.now()) - self.started_at).total_seconds()

    @property
    def formulas_per_second(self) -> float | None:
        """New formulas a second over a finished job's run; None before it finishes."""
        seconds = self.seconds
        if self.finished_at is None or seconds is None:
            return None
        return self.formulas_added / max(seconds, 1e-3)


class IndexPart(models.Model):
    """A share of an index job that any worker may take: a document of a `documents` upload, or a range of records
    of a file. One runner at a time takes it (a Postgres session lock, `searchapp.indexing.parts`) and indexes it from
    its cursor on; its counts are added to its job's as it goes."""

    job = models.ForeignKey(IndexJob, on_delete=models.CASCADE, related_name="parts")
    number = models.PositiveIntegerField(help_text="its place in the job, from 0")
    document = models.CharField(max_length=1000, blank=True,
                                help_text="documents: the document's path in the upload (its main file)")
    files = models.PositiveIntegerField(default=0, help_text="documents: the upload's files the document covers")
    bytes = models.PositiveBigIntegerField(default=0, help_text="documents: the bytes of those files")
    start = models.PositiveIntegerField(default=0, help_text="records: the first record of its range")
    stop = models.PositiveIntegerField(default=0, help_text="records: the record after its range")
    state = models.CharField(max_length=10, choices=IndexJob.State.choices, default=IndexJob.State.PENDING)
    cursor = models.PositiveIntegerField(default=0, help_text="records (or sections) processed so far")
    done = models.PositiveIntegerField(default=0, help_text="records indexed")
    failed = models.PositiveIntegerField(default=0, help_text="records that failed")
    formulas_added = models.PositiveIntegerField(default=0, help_text="new visually distinct formulas")
    formula_errors = models.PositiveIntegerField(default=0, help_text="formulas that could not be parsed")
    errors = models.JSONField(default=list, blank=True, help_text="its first 100 per-record errors")

    class Meta:
        ordering = ["job", "number"]
        constraints = [models.UniqueConstraint(fields=["job", "number"], name="indexpart_unique_number")]

    def __str__(self) -> str:
        return f"part {self.number} of job {self.job_id} {self.state}"


class UnlinkedAnswer(models.Model):
    """An answer stored before its question: another part of its job holds the question, and links it when the job
    ends (`searchapp.indexing.posts.link_answers`)."""

    part = models.ForeignKey(IndexPart, on_delete=models.CASCADE, related_name="+")
    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="+")
    parent_source_id = models.CharField(max_length=200, help_text="the source id of the question it answers")
