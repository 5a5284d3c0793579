"""The `documents` corpus format: LaTeX (a file or a project), Markdown, Jupyter notebooks and web pages, given
as a file, a folder or a zip archive; each section of each document becomes a post whose body carries its
formulas as `$…$` (inline) and `$$…$$` (display).

    from ml.data.documents import document_records, document_formulas, plan_upload
    for item in document_records("thesis.zip"): ...           # IndexRecord or RecordError, numbered over the job
    for planned in plan_upload("thesis.zip").documents: ...   # each document's id and files, read on demand
    sum(f.display for f in document_formulas("notes/"))       # display formulas, for the benchmark

Modules: archive (the files of a folder or zip, checked), hashed_files (their digests), posts (sections → post bodies and ids),
latex_tokens / latex_macros / latex_expansion (TeX's first stage: macros, includes, verbatim),
latex_context (what pylatexenc must know), latex_math / latex_structure / latex_projects (formulas,
sections, main files), markdown, notebooks,
html_pages, reader (the format: which reader for which file, the running record number).
"""
from ml.data.documents.archive import MAX_ARCHIVE_BYTES, MAX_ARCHIVE_MEMBERS, MAX_COMPRESSION_RATIO, MAX_DOCUMENT_BYTES
from ml.data.documents.posts import MAX_SECTION_BYTES, Document, Formula, PlannedDocument, Section, Unreadable
from ml.data.documents.reader import (
    EXTENSIONS,
    DocumentFormula,
    Upload,
    document_formulas,
    document_records,
    plan_upload,
    read_documents,
    section_items,
)

__all__ = ["EXTENSIONS", "MAX_ARCHIVE_BYTES", "MAX_ARCHIVE_MEMBERS", "MAX_COMPRESSION_RATIO", "MAX_DOCUMENT_BYTES",
           "MAX_SECTION_BYTES", "Document", "DocumentFormula", "Formula", "PlannedDocument", "Section", "Unreadable",
           "Upload", "document_formulas", "document_records", "plan_upload", "read_documents", "section_items"]
