"""`manage.py bench_patterns` names its bad arguments."""
import pytest
from django.core.management import CommandError, call_command

from tests.app.factories import PATTERN_FORMULAS as FORMULAS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("options, message", [
    ({"corpus": "nowhere"}, "no formulas in a corpus named 'nowhere'"),
    ({"corpus": "small", "queries": 0}, "--queries must be at least 1"),
])
def test_bad_arguments_are_named(index_file, options, message):
    index_file(FORMULAS, corpus="small")
    with pytest.raises(CommandError, match=message):
        call_command("bench_patterns", **options)
