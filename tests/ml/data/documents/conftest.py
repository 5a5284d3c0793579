import zipfile

import pytest

from ml.data.documents import document_records
from ml.data.records import IndexRecord, RecordError


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


def posts(path) -> list[IndexRecord]:
    return [item for item in document_records(path) if isinstance(item, IndexRecord)]


def errors(path) -> list[str]:
    return [item.message for item in document_records(path) if isinstance(item, RecordError)]


def formulas(path) -> list[str]:
    return [formula.text for record in posts(path) for formula in record.formulas]
