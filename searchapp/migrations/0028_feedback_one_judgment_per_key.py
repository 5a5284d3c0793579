"""One judgment per person, query meaning and result: judgments are held by the query's key (two spellings of one
formula share it), so the buttons show pressed and undo works whatever the spelling. Of a person's judgments of one
result under several spellings, the latest is what they mean now: it is kept, the others deleted, before the
constraints move from the text to the key (rows without a key get theirs first, as migration 0019 gave them)."""
import importlib

from django.conf import settings
from django.db import migrations, models

one_per_person = importlib.import_module("searchapp.migrations.0018_feedback_one_judgment_per_person")
keyed = importlib.import_module("searchapp.migrations.0019_feedback_query_key")


def collapse_by_key(apps, schema_editor):
    keyed.key_queries(apps, schema_editor)
    one_per_person.collapse(apps, schema_editor, query="query_key")


class Migration(migrations.Migration):

    dependencies = [
        ('searchapp', '0027_impression_seen'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(collapse_by_key, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name='feedback',
            name='one_judgment_per_user',
        ),
        migrations.RemoveConstraint(
            model_name='feedback',
            name='one_judgment_per_session',
        ),
        migrations.AddConstraint(
            model_name='feedback',
            constraint=models.UniqueConstraint(condition=models.Q(('kind__in', ['relevant', 'not_relevant']), ('user__isnull', False)), fields=('user', 'query_key', 'formula', 'post'), name='one_judgment_per_user_and_key', nulls_distinct=False),
        ),
        migrations.AddConstraint(
            model_name='feedback',
            constraint=models.UniqueConstraint(condition=models.Q(('kind__in', ['relevant', 'not_relevant']), ('user__isnull', True)), fields=('session_key', 'query_key', 'formula', 'post'), name='one_judgment_per_session_and_key', nulls_distinct=False),
        ),
    ]
