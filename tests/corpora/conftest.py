import pytest


@pytest.fixture
def write(tmp_path):
    """Writes text or bytes to a file and returns its path."""
    def writer(content: bytes | str, name="corpus.txt"):
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        return path
    return writer
