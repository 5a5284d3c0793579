"""The `documents` corpus format: LaTeX (a file or a project), Markdown, Jupyter notebooks and web pages, given
as a file, a folder, a zip or an arXiv source archive (or a folder of them); each section of each document becomes
a post whose body carries its formulas as `$…$` (inline) and `$$…$$` (display).

    from corpora.documents import document_records, document_formulas, plan_upload
    for item in document_records("thesis.zip"): ...           # IndexRecord or RecordError, numbered over the job
    for planned in plan_upload("thesis.zip").documents: ...   # each document's id and files, read on demand
    sum(f.display for f in document_formulas("notes/"))       # display formulas, for the benchmark

Modules, by flow:
- the upload's files: archive and tar_archives (a folder, zip or tar, checked), hashed_files (their digests);
- TeX's first stage: latex_tokens, latex_macros, latex_definitions, latex_conditionals, latex_expansion (the
  reading loop) with its parts latex_uses (macro uses and their bounds), latex_includes, latex_verbatim,
  latex_environments and latex_output (the text written), package_macros (the packages' math macros, as data);
- LaTeX's structure: latex_context (what pylatexenc must know), latex_structure, latex_math, latex_numbering
  with latex_counters and latex_references (sections, formulas, counters and references), latex_projects (main
  files, each document once);
- the other readers: markdown, notebooks, html_pages;
- what every reader produces: posts (sections → post bodies and ids), renderable (formulas KaTeX draws), problems
  (what it could not read: file, line, kind and message);
- reader (the format: the plan of an upload, which reader for which file, the running record number);
- notation (a query read with a corpus's macros).
"""
from corpora.documents.archive import MAX_ARCHIVE_BYTES, MAX_ARCHIVE_MEMBERS, MAX_COMPRESSION_RATIO, MAX_DOCUMENT_BYTES
from corpora.documents.posts import MAX_SECTION_BYTES, Document, Formula, PlannedDocument, Section, Unreadable
from corpora.documents.problems import KINDS, ReadProblem
from corpora.documents.reader import (
    EXTENSIONS,
    DocumentFormula,
    Upload,
    document_formulas,
    document_records,
    plan_upload,
    read_documents,
    section_items,
)

__all__ = ["EXTENSIONS", "KINDS", "MAX_ARCHIVE_BYTES", "MAX_ARCHIVE_MEMBERS", "MAX_COMPRESSION_RATIO",
           "MAX_DOCUMENT_BYTES", "MAX_SECTION_BYTES", "Document", "DocumentFormula", "Formula", "PlannedDocument",
           "ReadProblem", "Section", "Unreadable", "Upload", "document_formulas", "document_records", "plan_upload",
           "read_documents", "section_items"]
