"""`manage.py formula_report` (its sections run on the shared data; ml/evaluation's tests cover them)."""
import pytest
from django.core.management import CommandError, call_command


def test_a_missing_data_folder_is_named(tmp_path):
    with pytest.raises(CommandError, match=f"^data folder not found: {tmp_path / 'none'}$"):
        call_command("formula_report", "--data", str(tmp_path / "none"))
