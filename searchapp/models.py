"""Storage: corpora, posts, visually distinct formulas with their occurrences, node vectors, index jobs."""
from django.db import models
from pgvector.django import HalfVectorField, HnswIndex

VECTOR_DIM = 64
"""Node-vector dimension of the stored index; must equal the shipped model's output dimension."""


class Corpus(models.Model):
    name = models.SlugField(max_length=100, unique=True)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "corpora"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Post(models.Model):
    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="posts")
    source_id = models.CharField(max_length=200, help_text="The post's id in its source file.")
    title = models.CharField(max_length=500, blank=True)
    body = models.TextField(blank=True)
    url = models.URLField(max_length=1000, blank=True)
    tags = models.JSONField(default=list, blank=True)
    date = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["corpus", "id"]
        constraints = [
            models.UniqueConstraint(fields=["corpus", "source_id"], name="post_unique_source_id"),
        ]

    def __str__(self) -> str:
        return self.title or self.source_id


class FormulaQuerySet(models.QuerySet):
    def search(self, latex: str, **options):
        """Formulas most similar to `latex`; see `searchapp.search.search_formulas` for the options."""
        from searchapp.search import search_formulas

        return search_formulas(latex, formulas=self, **options)


class Formula(models.Model):
    """One visually distinct formula of a corpus (its canonical SLT string is the key)."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="formulas")
    visual_key = models.CharField(max_length=64, help_text="sha256 of the canonical SLT string")
    slt_string = models.TextField()
    latex = models.TextField(help_text="LaTeX of the first occurrence seen, for display")
    slg_matrix = models.BinaryField(help_text="int8 node vectors ×127 (n_slt, dim), pre-order")
    opg_matrix = models.BinaryField(help_text="int8 node vectors ×127 (n_opt, dim); empty without an OPT")
    opt_error = models.CharField(max_length=300, blank=True)
    node_labels = models.JSONField(default=dict, blank=True,
                                   help_text='{"slt": [...], "opt": [...]}: labels in the matrices\' row order')
    created_at = models.DateTimeField(auto_now_add=True)

    objects = FormulaQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["corpus", "visual_key"], name="formula_unique_visual_key"),
        ]

    def __str__(self) -> str:
        return self.latex[:80]


class Occurrence(models.Model):
    """Where a formula appears: a post and the formula's position in it."""

    formula = models.ForeignKey(Formula, on_delete=models.CASCADE, related_name="occurrences")
    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="occurrences")
    position = models.PositiveIntegerField(help_text="0-based index among the post's formulas")
    latex = models.TextField(help_text="the source LaTeX of this occurrence")
    start = models.PositiveIntegerField(default=0)
    end = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["post_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["post", "position"], name="occurrence_unique_position"),
        ]


class Centroid(models.Model):
    """One entry of the model's node-vector codebook (`ml.retrieval.codebook`), for the HNSW first stage.

    A query node's nearest centroids name, through their posting lists, the formulas worth scoring
    exactly. The codebook is fixed per model, so indexing only assigns nodes and never grows a graph.
    """

    number = models.PositiveIntegerField(help_text="row of the centroid in the model's codebook")
    embedding = HalfVectorField(dimensions=VECTOR_DIM)

    class Meta:
        abstract = True


class SlgCentroid(Centroid):
    class Meta:
        constraints = [models.UniqueConstraint(fields=["number"], name="slgcentroid_unique_number")]
        indexes = [HnswIndex(name="slgcentroid_embedding_hnsw", fields=["embedding"], m=16, ef_construction=64,
                             opclasses=["halfvec_cosine_ops"])]


class OpgCentroid(Centroid):
    class Meta:
        constraints = [models.UniqueConstraint(fields=["number"], name="opgcentroid_unique_number")]
        indexes = [HnswIndex(name="opgcentroid_embedding_hnsw", fields=["embedding"], m=16, ef_construction=64,
                             opclasses=["halfvec_cosine_ops"])]


class CodebookState(models.Model):
    """The fingerprint of the codebook loaded into the centroid tables; stored postings refer to its rows."""

    fingerprint = models.CharField(max_length=64)
    loaded_at = models.DateTimeField(auto_now=True)


class PostingList(models.Model):
    """Formulas of a corpus with a node assigned to centroid `centroid`: packed little-endian uint32 ids.

    An indexing chunk appends one row per centroid it touched; `compact_postings` merges a centroid's rows
    into one, so a query reads one blob per probed centroid instead of millions of rows.
    """

    class Representation(models.TextChoices):
        SLG = "slg"
        OPG = "opg"

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE)
    representation = models.CharField(max_length=3, choices=Representation.choices)
    centroid = models.PositiveIntegerField()
    formula_ids = models.BinaryField()

    class Meta:
        indexes = [models.Index(fields=["representation", "centroid", "corpus"], name="postinglist_lookup")]


class IndexJob(models.Model):
    """Indexing of one corpus file; `cursor` (records done) lets a killed job resume where it stopped."""

    class State(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    class Format(models.TextChoices):
        JSONL = "jsonl", "JSONL posts"
        ARQMATH = "arqmath", "ARQMath formula TSV"
        VISUAL_IDS = "visual_ids", "visual_id_file.tsv"
        SLT_TSV = "slt_tsv", "Tangent SLT strings TSV"
        LATEX_LINES = "latex", "LaTeX, one formula per line"

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="jobs")
    path = models.CharField(max_length=1000)
    format = models.CharField(max_length=20, choices=Format.choices)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    total = models.PositiveIntegerField(default=0, help_text="records in the file")
    cursor = models.PositiveIntegerField(default=0, help_text="records processed so far")
    done = models.PositiveIntegerField(default=0, help_text="records indexed")
    failed = models.PositiveIntegerField(default=0, help_text="records that failed")
    formulas_added = models.PositiveIntegerField(default=0, help_text="new visually distinct formulas")
    formula_errors = models.PositiveIntegerField(default=0, help_text="formulas that could not be parsed")
    errors = models.JSONField(default=list, blank=True, help_text="the first 100 per-record errors")
    message = models.TextField(blank=True, help_text="why the job failed, if it did")
    timings = models.JSONField(default=dict, blank=True, help_text="seconds spent per stage")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"job {self.pk} {self.corpus} {self.state}"


class Feedback(models.Model):
    """A user's signal on a result: a click on it, or an explicit relevant / not relevant judgement."""

    class Kind(models.TextChoices):
        CLICK = "click"
        RELEVANT = "relevant"
        NOT_RELEVANT = "not_relevant"

    query = models.TextField()
    formula = models.ForeignKey(Formula, on_delete=models.CASCADE, related_name="feedback")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    rank = models.PositiveIntegerField()
    fusion = models.CharField(max_length=20, default="max")
    session_key = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["query", "kind"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.formula_id} for {self.query[:40]}"
