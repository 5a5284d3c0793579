"""What reading one upload may cost, as the help page tells it: each limit from the constant the reader itself
checks (the README's "Reading limits"), so the page cannot drift from what an upload meets."""
from django.template.defaultfilters import filesizeformat

from corpora.documents import MAX_SECTION_BYTES
from corpora.documents.archive import (
    BOMB_MIN_BYTES,
    MAX_ARCHIVE_BYTES,
    MAX_ARCHIVE_MEMBERS,
    MAX_COMPRESSION_RATIO,
    MAX_DOCUMENT_BYTES,
    MEMBER_BOMB_MIN_BYTES,
)
from corpora.documents.budgets import MAX_DOCUMENT_CHARS, MAX_UPLOAD_MACRO_TOKENS
from corpora.documents.latex_uses import MAX_DOCUMENT_TOKENS, MAX_USE_TOKENS, TOKENS_PER_SOURCE_CHAR
from mathparse.errors import MAX_DEPTH
from mathparse.extraction import MAX_FORMULA_CHARS


def _size(count: int) -> str:
    """Bytes as the README writes them: 5 MB, 64 KB (powers of ten, as the reader counts)."""
    return f"{count / 1_000_000:g} MB" if count >= 1_000_000 else f"{count / 1_000:g} KB"


def reading_limits(upload_bytes: int) -> list[tuple[str, str]]:
    """(what, its limit) rows; `upload_bytes` is the admin upload's own limit (MATHSEARCH_MAX_UPLOAD_BYTES, counted
    in binary units as the upload page shows it)."""
    return [
        ("an upload", f"{filesizeformat(upload_bytes)}, for staff who may add index jobs"),
        ("an archive (zip, tar, tar.gz, gz)", f"{_size(MAX_ARCHIVE_BYTES)} uncompressed, {MAX_ARCHIVE_MEMBERS:,} "
                                              "members, no path outside it, no link or device"),
        ("an archive's compression", f"{MAX_COMPRESSION_RATIO}:1, for the whole archive above "
                                     f"{_size(BOMB_MIN_BYTES)} and for each zip member above "
                                     f"{_size(MEMBER_BOMB_MIN_BYTES)}"),
        ("bytes read from an upload", f"twice what its listing declares, plus {_size(MAX_DOCUMENT_BYTES)}"),
        ("one file", _size(MAX_DOCUMENT_BYTES)),
        ("one document's characters", f"{MAX_DOCUMENT_CHARS:,}: each included file each time it is included, its "
                                      "verbatim material and its expanded text"),
        ("one macro use / one document's macros", f"{MAX_USE_TOKENS:,} tokens / {MAX_DOCUMENT_TOKENS:,} + "
                                                  f"{TOKENS_PER_SOURCE_CHAR} per character of its files"),
        ("an upload's macros", f"{MAX_UPLOAD_MACRO_TOKENS:,} tokens over all its documents; then the rest is read "
                               "with its macros left as written"),
        ("one section (a post)", f"{_size(MAX_SECTION_BYTES)} of text"),
        ("one formula", f"{MAX_FORMULA_CHARS:,} characters, {MAX_DEPTH} levels deep"),
    ]
