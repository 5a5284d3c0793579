import gzip
import io
import tarfile
import zipfile

import pytest

from corpora.documents import document_records
from corpora.records import IndexRecord, RecordError


@pytest.fixture
def upload(tmp_path):
    """Writes {relative path: text or bytes} into a folder (or, with zip=True, a zip archive) and returns its path."""
    def writer(files: dict, zip: bool = False, name: str = "upload"):
        if zip:
            path = tmp_path / f"{name}.zip"
            with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
                for relative, content in files.items():
                    archive.writestr(relative, content)
            return path
        folder = tmp_path / name
        for relative, content in files.items():
            file = folder / relative
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_bytes(content if isinstance(content, bytes) else content.encode())
        return folder
    return writer


def tar_bytes(members: dict, gzipped: bool = False) -> bytes:
    """A tar archive (gzipped with `gzipped`) of {member name: text, bytes, or a `tarfile.TarInfo` for a member
    without data: a folder, a link, a device}."""
    written = io.BytesIO()
    with tarfile.open(fileobj=written, mode="w", format=tarfile.GNU_FORMAT) as archive:
        for name, content in members.items():
            if isinstance(content, tarfile.TarInfo):
                content.name = name
                archive.addfile(content)
                continue
            data = content if isinstance(content, bytes) else content.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return gzip.compress(written.getvalue()) if gzipped else written.getvalue()


def posts(path) -> list[IndexRecord]:
    return [item for item in document_records(path) if isinstance(item, IndexRecord)]


def errors(path) -> list[str]:
    return [item.message for item in document_records(path) if isinstance(item, RecordError)]


def formulas(path) -> list[str]:
    return [formula.text for record in posts(path) for formula in record.formulas]
