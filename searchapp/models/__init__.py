"""Storage: the app's tables; every model and every name callers use is imported from here."""
from searchapp.models.formulas import (
    CORPUS_NAME_CHARS,
    MAX_K,
    CodebookState,
    Corpus,
    CorpusRanker,
    CorpusWords,
    Feedback,
    Formula,
    Impression,
    IndexJob,
    IndexPart,
    Occurrence,
    OpgCentroid,
    PendingPosting,
    Post,
    PostingList,
    SlgCentroid,
    SourceDocument,
    StemCount,
    UnlinkedAnswer,
    slg_matrices,
)

__all__ = ["CORPUS_NAME_CHARS", "MAX_K", "CodebookState", "Corpus", "CorpusRanker", "CorpusWords", "Feedback", "Formula",
           "Impression", "IndexJob", "IndexPart", "Occurrence", "OpgCentroid", "PendingPosting", "Post", "PostingList",
           "SlgCentroid", "SourceDocument", "StemCount", "UnlinkedAnswer", "slg_matrices"]
