"""An upload's files as the readers read them, with the sha256 of each file read: a document's files and their
digests are what indexing the same upload again compares with, to skip what did not change."""
from __future__ import annotations

import hashlib

from corpora.documents.archive import UNREADABLE, DocumentFiles


class HashedFiles:
    def __init__(self, files: DocumentFiles) -> None:
        self.files = files
        self.paths = files.paths
        self.digests: dict[str, str] = {}
        """sha256 of each file read so far, by path."""

    def __contains__(self, path: object) -> bool:
        return path in self.files

    def read(self, path: str) -> bytes:
        """The file's bytes (DocumentFiles.read: ValueError above the size limit), their digest kept."""
        data = self.files.read(path)
        self.digests[path] = hashlib.sha256(data).hexdigest()
        return data

    def digest(self, path: str) -> str | None:
        """The file's sha256, read now if it was not yet; None when it is gone or cannot be read."""
        if path not in self.digests:
            if path not in self.files:
                return None
            try:
                self.read(path)
            except UNREADABLE:
                return None
        return self.digests[path]

    def size(self, path: str) -> int:
        return self.files.size(path)
