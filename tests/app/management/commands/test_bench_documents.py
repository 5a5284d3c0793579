"""`manage.py bench_documents` refuses bad arguments before it makes its database."""
import pytest
from django.core.management import CommandError, call_command


def test_a_missing_path_and_an_empty_sample_are_named(tmp_path):
    with pytest.raises(CommandError, match=f"^{tmp_path / 'none'}: no such file or folder$"):
        call_command("bench_documents", str(tmp_path / "none"))
    with pytest.raises(CommandError, match="^--sample must be at least 1$"):
        call_command("bench_documents", str(tmp_path), "--sample", "0")
