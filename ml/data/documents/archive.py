"""A read-only view of the files of an upload (a file, a folder or a zip archive): relative posix path → bytes,
read lazily, so LaTeX include resolution works the same in a folder and in a zip.

A zip is checked before anything is read from it: its declared sizes, member count and compression ratios
(a zip bomb is refused as a whole), and member paths that would leave the folder. Each file is refused above
MAX_DOCUMENT_BYTES before being read whole.
"""
from __future__ import annotations

import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path, PurePosixPath

MAX_DOCUMENT_BYTES = 5_000_000
"""A file above this size is refused (a RecordError naming it), checked before reading it whole."""
MAX_ARCHIVE_BYTES = 200_000_000
"""The total uncompressed size a zip may declare."""
MAX_ARCHIVE_MEMBERS = 10_000
MAX_COMPRESSION_RATIO = 100
"""A member compressed more than this, and larger than BOMB_MIN_BYTES uncompressed, is a zip bomb."""
BOMB_MIN_BYTES = 1_000_000
UNREADABLE = (OSError, ValueError, zipfile.BadZipFile, zlib.error, EOFError)
"""What reading one file may raise."""


class DocumentFiles:
    """The files of an upload by relative posix path (sorted), each read on demand by `read`.

    Hidden files and folders (a name starting with `.`) and macOS's `__MACOSX/` copies are not part of it.
    """

    def __init__(self, paths: list[str], reader: Callable[[str], bytes], sizes: dict[str, int]) -> None:
        self.paths = sorted(paths)
        self._reader, self._sizes = reader, sizes

    def __contains__(self, path: object) -> bool:
        return path in self._sizes

    def read(self, path: str) -> bytes:
        """The bytes of one file; ValueError if it is over MAX_DOCUMENT_BYTES (without reading it whole)."""
        if self._sizes[path] > MAX_DOCUMENT_BYTES:
            raise ValueError(f"{self._sizes[path]:,} bytes; a file is refused above {MAX_DOCUMENT_BYTES:,}")
        data = self._reader(path)
        if len(data) > MAX_DOCUMENT_BYTES:  # an archive may declare less than it holds
            raise ValueError(f"more than {MAX_DOCUMENT_BYTES:,} bytes; a file is refused above that")
        return data


def document_files(path: str | Path) -> DocumentFiles:
    """The view of a file, a folder (recursively) or a zip archive; ValueError for a missing path or a zip
    refused by its checks (one line saying why)."""
    path = Path(path)
    if path.is_dir():
        return _folder(path)
    if path.is_file() and path.suffix.lower() == ".zip":
        return _archive(path)
    if path.is_file():
        return DocumentFiles([path.name], lambda _: _read_head(path), {path.name: path.stat().st_size})
    raise ValueError(f"{path}: no such file or folder")


def _hidden(relative: PurePosixPath) -> bool:
    return any(part.startswith(".") or part == "__MACOSX" for part in relative.parts)


def _folder(folder: Path) -> DocumentFiles:
    sizes = {}
    for file in folder.rglob("*"):
        relative = PurePosixPath(file.relative_to(folder).as_posix())
        if file.is_file() and not _hidden(relative):
            sizes[str(relative)] = file.stat().st_size
    return DocumentFiles(list(sizes), lambda relative: _read_head(folder / relative), sizes)


def _read_head(file: Path) -> bytes:
    with open(file, "rb") as handle:  # at most one byte past the limit, whatever the file grew to
        return handle.read(MAX_DOCUMENT_BYTES + 1)


def _archive(path: Path) -> DocumentFiles:
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as error:
        raise ValueError(f"{path.name}: not a readable zip archive ({error})") from None
    infos = [info for info in archive.infolist() if not info.is_dir()]
    problem = archive_problem(infos)
    if problem:
        archive.close()
        raise ValueError(f"{path.name}: {problem}")
    members = {info.filename: info for info in infos if not _hidden(PurePosixPath(info.filename))}

    def read(relative: str) -> bytes:
        with archive.open(members[relative]) as member:
            return member.read(MAX_DOCUMENT_BYTES + 1)

    return DocumentFiles(list(members), read, {name: info.file_size for name, info in members.items()})


def archive_problem(infos: list[zipfile.ZipInfo]) -> str | None:
    """Why a zip's members are refused before reading any of them (a bomb, too many, a path leaving the
    folder), or None."""
    if len(infos) > MAX_ARCHIVE_MEMBERS:
        return f"{len(infos):,} members; an archive is refused above {MAX_ARCHIVE_MEMBERS:,}"
    total = sum(info.file_size for info in infos)
    if total > MAX_ARCHIVE_BYTES:
        return f"{total:,} bytes uncompressed; an archive is refused above {MAX_ARCHIVE_BYTES:,}"
    for info in infos:
        name = info.filename.replace("\\", "/")
        if name.startswith("/") or ".." in PurePosixPath(name).parts or (len(name) > 1 and name[1] == ":"):
            return f"member {info.filename!r} would be written outside the folder"
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > BOMB_MIN_BYTES and ratio > MAX_COMPRESSION_RATIO:
            return (f"member {info.filename!r} is compressed {ratio:,.0f}:1; an archive is refused above "
                    f"{MAX_COMPRESSION_RATIO}:1 (a zip bomb)")
    return None


def decoded(data: bytes, latin1: bool = False) -> str:
    """UTF-8 text (a byte-order mark dropped), or with `latin1` Latin-1 when it is not UTF-8 (old LaTeX
    sources); ValueError for binary data (a NUL byte) or undecodable text."""
    if b"\x00" in data:
        raise ValueError(f"binary data (a NUL byte at {data.index(0)}), not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        if latin1:
            return data.decode("latin-1")
        raise ValueError(f"not UTF-8 (byte {error.start})") from None
