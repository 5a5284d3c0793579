"""Indexing records in chunks: parse formulas → embed new visual keys → encode posts → store (`jobs` runs a job).

Each chunk is one transaction that also advances its part's `cursor` (`parts.advance`), so a part killed mid-way
resumes after its last committed chunk and nothing is stored twice: posts are unique by source id, formulas by
(corpus, visual key), occurrences by (post, position). Parts of a job store at once; a deadlock between two of them
(each waiting for a key the other inserted) fails one transaction, which is run again.
"""
from __future__ import annotations

import copy
import itertools
import json
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
from django.db import OperationalError, connection, transaction
from psycopg.errors import DeadlockDetected

from corpora.records import IndexRecord, RecordError, SourceFormula
from mathparse import FormulaGraphs, ParseError, parse, slt_to_latex, to_slt_string, visual_key
from mathparse.cycle_collection import cycle_collection_paused
from ml.retrieval.structure import pack_terms, structure_terms, subtree_terms
from ml.text import EncodedPost, text_encoder
from ml.text.posts import body_span, post_text
from searchapp.embedding import embed_graphs, get_fusion, node_labels
from searchapp.indexing.codebook import require_loaded_codebook
from searchapp.indexing.parts import ChunkOutcome, advance, lock_part, summed_timings
from searchapp.indexing.postings import store_postings
from searchapp.indexing.posts import store_posts
from searchapp.models import Corpus, IndexJob, IndexPart
from searchapp.sql import copy_binary, halfvec
from searchapp.vectors import as_stored, decode_matrix, matrix_bytes

FIRST_CHUNK = 8
"""Records of a job's first chunk, before any pace is known: few, so its counters move within a second or two even
for posts with text (16 of them took 2.1 s on two cores); fast records double it a chunk."""
CHUNK_SECONDS = 0.8
"""What a chunk aims to take. Chunks are sized by time, not by count (a fixed 500 kept a 150-post upload at 0 / 150
for its whole 36 s): the counters (the job's page, `index_corpus`'s bar) then move within 2 s even when the next
records are twice as slow (at 1.0 the longest gap measured was 2.1 s), and a chunk's fixed cost (its transaction, a
few queries) stays a few percent."""
MAX_CHUNK = 5000
"""Records a chunk holds at most, however fast they go: what it keeps in memory at once stays bounded."""
DEADLOCK_ATTEMPTS = 5
"""Times a transaction broken by a deadlock is run: Postgres fails one of the two after a second (deadlock_timeout),
and the other goes on, so a second attempt rarely meets another."""
ENCODER_THREADS = 2
"""Threads that encode the next chunk's posts while this one is prepared and stored, each running its posts one at a
time on one core (ONNX Runtime lets go of the GIL). On two cores, 200 thread posts went 1.85× as fast on two threads
as on one; in a job, where the job's own thread shares the cores, 1.12× (`_index_chunks`)."""


Progress = Callable[[IndexJob], None]
"""Told the job as committed after each chunk (`index_corpus`'s bar)."""


@dataclass
class ParsedFormula:
    source: SourceFormula
    record: IndexRecord
    graphs: FormulaGraphs
    slt_string: str
    visual_key: str
    latex: str
    """What pages show: the source itself for LaTeX, else LaTeX rendered from the SLT (KaTeX reads only LaTeX)."""


def index_chunks(part: IndexPart, corpus: Corpus, items: Iterable[IndexRecord | RecordError],
                 progress: Progress) -> None:
    """Read, prepare (parse, embed, fuse) and store each chunk of the part's records in turn (`prepared_chunks`)."""
    with chunk_encoder() as encoder:
        for prepared in prepared_chunks(corpus, items, encoder):
            progress(retried_on_deadlock(store_chunk, part.pk, prepared))


def chunk_encoder() -> ThreadPoolExecutor:
    """The threads that encode a chunk's posts ahead; made per job: a pool made before a worker process forks
    would hold a thread the child does not have."""
    return ThreadPoolExecutor(max_workers=ENCODER_THREADS, thread_name_prefix="index-text")


def prepared_chunks(corpus: Corpus, items: Iterable[IndexRecord | RecordError], encoder: ThreadPoolExecutor,
                    encode_all: bool = False) -> Iterator[PreparedChunk]:
    """Each chunk prepared, sized by the time the last one took (with what the caller did with it), while the
    text encoder reads the next chunk's posts on threads of its own. With `encode_all`, posts are encoded even
    when a post of the same id has a vector: it is about to be replaced.

    The encoder spends its time in ONNX Runtime, which lets go of the GIL, so it keeps the cores busy while this
    thread parses, embeds, fuses and stores: one after the other, the two cores were busy together only while the
    encoder ran. With this thread busy beside them, two encoder threads still beat one: 300 thread pages (544 posts)
    at 25.6-26.8 against 23.1-23.6 posts/s, three rounds each on an AVX-512 machine, which the three threads then
    keep fully busy. Storing chunk N on a second thread while chunk N+1 was prepared was measured slower instead
    (260 vs 274 formulas/s at 100k): those threads contend for the GIL and for the cores Postgres needs.
    The cycle collector waits for the chunk's end: paused per formula only, it ran after each parse and
    walked the worker's torch objects every time (parsing took 0.66 instead of 0.36 ms a formula).
    """
    items, size = iter(items), FIRST_CHUNK
    chunk = list(itertools.islice(items, size))
    if not chunk:
        return
    words = _encode_ahead(encoder, corpus, chunk, set(), encode_all)
    while True:
        started = time.perf_counter()
        following = list(itertools.islice(items, size))
        # a post of this chunk is stored by it: the next chunk's copy of it is not encoded again
        following_words = _encode_ahead(encoder, corpus, following, _post_ids(chunk), encode_all) if following else None
        with cycle_collection_paused():
            yield prepare_chunk(corpus, chunk, words)
        if following_words is None:
            return
        size = next_chunk_size(len(chunk), time.perf_counter() - started)
        chunk, words = following, following_words


def next_chunk_size(records: int, seconds: float) -> int:
    """Records that would take CHUNK_SECONDS at the pace of the last chunk (`records` in `seconds`): at most twice
    as many, so a chunk takes at most twice the time its records had, and at least one."""
    wanted = records * CHUNK_SECONDS / seconds if seconds > 0 else MAX_CHUNK
    return max(1, min(round(wanted), 2 * records, MAX_CHUNK))


@dataclass
class PreparedChunk:
    """A chunk parsed and embedded, ready to store: `new` are the formulas whose keys were not stored yet."""

    consumed: int
    records: list[IndexRecord]
    parsed: list[ParsedFormula]
    new: list[ParsedFormula]
    vectors: list[dict]
    texts: dict[str, EncodedPost]
    """Text vectors of the posts to encode, by source id; their `contexts` follow the record's formulas."""
    fused: dict[str, np.ndarray]
    """MaRF's vector of each of those posts, by source id, when a fusion is shipped."""
    outcome: ChunkOutcome


def prepare_chunk(corpus: Corpus, items: list[IndexRecord | RecordError], words: WordsAhead) -> PreparedChunk:
    """`words` are the chunk's posts as `_encode_ahead` encodes them, ready or on their way."""
    outcome = ChunkOutcome()
    records = [item for item in items if isinstance(item, IndexRecord)]
    for item in items:
        if isinstance(item, RecordError):
            outcome.failed += 1
            outcome.errors.append(item.to_json())
    parsed = _timed(outcome, "parse", _parse_all, records, outcome)
    first_by_key: dict[str, ParsedFormula] = {}
    for item in parsed:
        first_by_key.setdefault(item.visual_key, item)
    stored = set(corpus.formulas.filter(visual_key__in=first_by_key).values_list("visual_key", flat=True))
    new = [item for key, item in first_by_key.items() if key not in stored]
    vectors = _timed(outcome, "embed", embed_graphs, [item.graphs for item in new])
    texts, seconds = words.result()
    outcome.timings["text"] += seconds  # the encoder's own time, summed over its threads
    fused = _timed(outcome, "fuse", _fuse_posts, corpus, parsed, new, vectors, texts)
    return PreparedChunk(len(items), records, parsed, new, vectors, texts, fused, outcome)


EncodedWords = tuple[dict[str, EncodedPost], float]
"""Text vectors by source id, and the seconds the encoder took for them."""


@dataclass
class WordsAhead:
    """A chunk's posts on their way through the encoder's threads, a share on each."""

    shares: list[Future[EncodedWords]]

    def result(self) -> EncodedWords:
        """The vectors of every share, once all are encoded, and the encoder's seconds summed over its threads."""
        texts: dict[str, EncodedPost] = {}
        seconds = 0.0
        for share in self.shares:
            encoded, spent = share.result()
            texts.update(encoded)
            seconds += spent
        return texts, seconds


def _encode_ahead(encoder: ThreadPoolExecutor, corpus: Corpus, items: list[IndexRecord | RecordError],
                  pending: set[str], encode_all: bool) -> WordsAhead:
    """The text vectors of the posts of `items` that have text and none stored yet nor `pending`, encoded on
    `encoder`'s threads, each on one core, every ENCODER_THREADS-th post on each. Which posts need them is read
    here, since a connection belongs to its thread."""
    texts, spans, ids = _to_encode(corpus, [item for item in items if isinstance(item, IndexRecord)], pending,
                                   encode_all)
    return WordsAhead([encoder.submit(_encoded, texts[i::ENCODER_THREADS], spans[i::ENCODER_THREADS],
                                      ids[i::ENCODER_THREADS])
                       for i in range(min(ENCODER_THREADS, len(texts)))])


def _to_encode(corpus: Corpus, records: list[IndexRecord], pending: set[str],
               encode_all: bool) -> tuple[list[str], list[list[tuple[int, int]]], list[str]]:
    """The texts of the posts with text and no stored vector (unless `encode_all`; the first record of each, not
    `pending`), with their formulas' spans and their source ids."""
    first: dict[str, IndexRecord] = {}
    for record in records:
        if record.post.body.strip() and record.post.source_id not in pending:
            first.setdefault(record.post.source_id, record)
    encoded = set() if encode_all else set(corpus.posts.filter(source_id__in=first, embedding__isnull=False)
                                           .values_list("source_id", flat=True))
    todo = [record for source_id, record in first.items() if source_id not in encoded]
    return ([post_text(record.post.title, record.post.body) for record in todo],
            [[body_span(record.post.title, f.start, f.end) for f in record.formulas] for record in todo],
            [record.post.source_id for record in todo])


def _encoded(texts: list[str], spans: list[list[tuple[int, int]]], ids: list[str]) -> EncodedWords:
    started = time.perf_counter()
    encoded = text_encoder().encode(texts, spans) if texts else []
    return dict(zip(ids, encoded)), time.perf_counter() - started


def _post_ids(items: list[IndexRecord | RecordError]) -> set[str]:
    return {item.post.source_id for item in items if isinstance(item, IndexRecord)}


def store_chunk(part_id: int, prepared: PreparedChunk) -> IndexJob:
    """Store a prepared chunk of a part and advance the part's and the job's counters in the same transaction; the
    job as advanced. JobCancelled, with nothing stored, once the part is cancelled: the cancel waits for the lock on
    the part's row, so it lands between two chunks."""
    with transaction.atomic():
        part = lock_part(part_id)
        return advance(part, prepared.consumed, store_prepared(part, prepared))


def store_prepared(part: IndexPart, prepared: PreparedChunk, document_id: int | None = None) -> ChunkOutcome:
    """Store a prepared chunk in the open transaction, which holds the part's lock (`lock_part`); what it added.
    Its posts are sections of the SourceDocument `document_id`, when given. `prepared` is left as it was, so that a
    transaction run again stores it again."""
    outcome = copy.deepcopy(prepared.outcome)
    with connection.cursor() as cursor:
        require_loaded_codebook(cursor)
    corpus = part.job.corpus
    posts, refused = _timed(outcome, "store", store_posts, corpus, part.pk, prepared.records, prepared.texts,
                            prepared.fused, document_id)
    for line, message in refused.items():
        outcome.failed += 1
        outcome.errors.append({"line": line, "message": message})
    parsed = [item for item in prepared.parsed if item.record.line not in refused]
    keys = {item.visual_key for item in parsed}
    kept = [i for i, item in enumerate(prepared.new) if item.visual_key in keys]
    inserted = _timed(outcome, "store", insert_formulas, corpus.pk, [prepared.new[i] for i in kept],
                      [prepared.vectors[i] for i in kept])
    # Ids of every key in the chunk, including those another part, a concurrent job or an earlier chunk stored.
    formula_ids = dict(corpus.formulas.filter(visual_key__in=keys).values_list("visual_key", "id"))
    _timed(outcome, "store", _store_occurrences, parsed, posts, formula_ids, prepared.texts)
    outcome.done += len(prepared.records) - len(refused)
    outcome.added += len(inserted)
    return outcome


Stored = TypeVar("Stored")


def retried_on_deadlock(store: Callable[..., Stored], *args) -> Stored:
    """`store(*args)`, a transaction of its own, run again when Postgres broke a deadlock by failing it (two parts
    inserting the same new formulas in another order, each waiting for the other's)."""
    attempt = 1
    while True:
        try:
            return store(*args)
        except OperationalError as error:
            if not isinstance(error.__cause__, DeadlockDetected) or attempt == DEADLOCK_ATTEMPTS:
                raise
            attempt += 1


def _timed(outcome: ChunkOutcome, stage: str, function, *args):
    started = time.perf_counter()
    result = function(*args)
    outcome.timings[stage] += time.perf_counter() - started
    return result


def _parse_all(records: list[IndexRecord], outcome: ChunkOutcome) -> list[ParsedFormula]:
    parsed = []
    for record in records:
        for source in record.formulas:
            try:
                graphs = parse(source.text, source.notation)
            except ParseError as error:
                outcome.formula_errors += 1
                outcome.errors.append({"line": record.line, "message": f"formula {source.position}: "
                                       f"{error.kind} at {error.pos}: {error.message}"})
                continue
            slt_string = to_slt_string(graphs.slt)
            latex = source.text if source.notation == "latex" else slt_to_latex(graphs.slt)
            parsed.append(ParsedFormula(source, record, graphs, slt_string, visual_key(slt_string), latex))
    return parsed


def insert_formulas(corpus_id: int, new: list[ParsedFormula], vectors: list[dict]) -> dict[str, int]:
    """COPY the new formulas into a staging table, INSERT … ON CONFLICT DO NOTHING, and post the inserted ones.

    A concurrent job may insert the same key first; its row (and postings) are then kept and ours skipped.
    """
    matrices = {item.visual_key: vector for item, vector in zip(new, vectors)}
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMP TABLE IF NOT EXISTS incoming_formula (visual_key varchar(64), slt_string text, latex text,"
            " notation varchar(6), slg_matrix bytea, opg_matrix bytea, opt_error varchar(300), node_labels jsonb,"
            " structure bytea, subtrees integer[])"
            " ON COMMIT DELETE ROWS")
        with cursor.copy("COPY incoming_formula FROM STDIN") as copy:
            for item in new:
                vector = matrices[item.visual_key]
                terms = structure_terms(item.graphs.slt, item.graphs.opt)
                copy.write_row((item.visual_key, item.slt_string, item.latex, item.source.notation, matrix_bytes(vector["slg"]),
                                matrix_bytes(vector["opg"]), (item.graphs.opt_error or "")[:300],
                                json.dumps(node_labels(item.graphs)),
                                pack_terms(terms), subtree_terms(terms).tolist()))
        cursor.execute(
            "INSERT INTO searchapp_formula (corpus_id, visual_key, slt_string, latex, notation, slg_matrix, opg_matrix,"
            " opt_error, node_labels, structure, subtrees, created_at) SELECT %s, visual_key, slt_string, latex,"
            " notation, slg_matrix, opg_matrix, opt_error, node_labels, structure, subtrees, now() FROM incoming_formula"
            " ORDER BY visual_key"  # every part takes the keys' locks in one order: two chunks never wait in a circle
            " ON CONFLICT (corpus_id, visual_key) DO NOTHING"
            " RETURNING visual_key, id", [corpus_id])
        inserted = dict(cursor.fetchall())
        cursor.execute("TRUNCATE incoming_formula")
        store_postings(cursor, corpus_id, [(inserted[key], matrices[key]) for key in inserted])
    return inserted


def _store_occurrences(parsed: list[ParsedFormula], posts: dict[str, int], formula_ids: dict[str, int],
                       texts: dict[str, EncodedPost]) -> None:
    """Binary COPY into a staging table, then INSERT … ON CONFLICT DO NOTHING (an occurrence stored before stays)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMP TABLE IF NOT EXISTS incoming_occurrence (formula_id bigint, post_id bigint, position integer,"
            " latex text, start integer, stop integer, anchor text, number text, context halfvec) ON COMMIT DELETE ROWS")
        copy_binary(cursor, "COPY incoming_occurrence FROM STDIN",
                    ["bigint", "bigint", "integer", "text", "integer", "integer", "text", "text", "halfvec"],
                    ((formula_ids[item.visual_key], posts[item.record.post.source_id], item.source.position,
                      item.latex, item.source.start, item.source.end, item.source.anchor[:100],
                      item.source.number[:20],
                      halfvec(_context(item, texts))) for item in parsed))
        cursor.execute(
            'INSERT INTO searchapp_occurrence (formula_id, post_id, position, latex, start, "end", anchor, number,'
            " context) SELECT formula_id, post_id, position, latex, start, stop, anchor, number, context"
            " FROM incoming_occurrence"
            " ON CONFLICT DO NOTHING")
        cursor.execute("TRUNCATE incoming_occurrence")


def _fuse_posts(corpus: Corpus, parsed: list[ParsedFormula], new: list[ParsedFormula], vectors: list[dict],
                texts: dict[str, EncodedPost]) -> dict[str, np.ndarray]:
    """MaRF's vector of each post encoded in this chunk, when a fusion is shipped (`ml.text.marf`), by source id:
    its words fused with the SLG node vectors of its first record's formulas, as stored (a new formula's from this
    chunk, the others read by key).

    Computed before the posts are stored so that each is written once. On the process's one torch thread, not
    `dense_threads`: the fusion is many small products, and two threads waited on each other (7.0 against 39 ms a
    post on one and two threads at load 5; 4.1 against 72 after the pooling change)."""
    fusion = get_fusion()
    if fusion is None or not texts:
        return {}
    first: dict[str, int] = {}
    keys: dict[str, list[str]] = {source_id: [] for source_id in texts}
    for item in parsed:
        source_id = item.record.post.source_id
        if source_id in keys and first.setdefault(source_id, item.record.line) == item.record.line:
            keys[source_id].append(item.visual_key)
    matrices = {item.visual_key: as_stored(vector["slg"]) for item, vector in zip(new, vectors)}
    wanted = {key for found in keys.values() for key in found} - set(matrices)
    matrices.update((key, decode_matrix(blob)) for key, blob in
                    corpus.formulas.filter(visual_key__in=wanted).values_list("visual_key", "slg_matrix"))
    return {source_id: fusion.post_vector(texts[source_id].tokens.astype("float32"),
                                   [matrices[key] for key in found if key in matrices])
            for source_id, found in keys.items()}


def _context(item: ParsedFormula, texts: dict[str, EncodedPost]):
    encoded = texts.get(item.record.post.source_id)
    return encoded.contexts[item.record.formulas.index(item.source)] if encoded else None


def add_timing(job: IndexJob, stage: str, seconds: float) -> None:
    """A job-wide stage's seconds (counting, merging) added to its timings, which its parts add to meanwhile."""
    with transaction.atomic():
        timings = IndexJob.objects.select_for_update().values_list("timings", flat=True).get(pk=job.pk)
        IndexJob.objects.filter(pk=job.pk).update(timings=summed_timings(timings, {stage: seconds}))
