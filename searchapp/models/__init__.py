"""Storage: the app's tables, a module a subject, and the read verbs `Formula.objects.search` and
`Post.objects.search`. Every model, and every name other modules use, is imported from here; the modules import each
other (corpora first, everything else on top), never this package."""
from searchapp.models.codebook import CodebookState, OpgCentroid, PendingPosting, PostingList, SlgCentroid
from searchapp.models.corpora import CORPUS_NAME_CHARS, Corpus, CorpusWords, SourceDocument, StemCount
from searchapp.models.corpus_rankers import CorpusRanker
from searchapp.models.feedback import MAX_K, Feedback, Impression
from searchapp.models.formulas import Formula, Occurrence, slg_matrices
from searchapp.models.index_jobs import IndexJob, IndexPart, UnlinkedAnswer
from searchapp.models.posts import Post

__all__ = ["CORPUS_NAME_CHARS", "MAX_K", "CodebookState", "Corpus", "CorpusRanker", "CorpusWords", "Feedback", "Formula",
           "Impression", "IndexJob", "IndexPart", "Occurrence", "OpgCentroid", "PendingPosting", "Post", "PostingList",
           "SlgCentroid", "SourceDocument", "StemCount", "UnlinkedAnswer", "slg_matrices"]
