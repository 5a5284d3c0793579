"""Each feedback row's query in its normalised form (`searchapp.search.query_keys`): searches read the feedback on
their results by it, so rows written before it must have it too. Each distinct query is keyed once."""
from django.db import migrations, models

from searchapp.search.query_keys import feedback_key


def key_queries(apps, schema_editor):
    Feedback = apps.get_model("searchapp", "Feedback")
    for on_formula in (True, False):
        rows = Feedback.objects.filter(query_key="", formula__isnull=not on_formula)
        for query in list(rows.order_by().values_list("query", flat=True).distinct()):
            rows.filter(query=query).update(query_key=feedback_key(query, on_formula))


class Migration(migrations.Migration):

    dependencies = [
        ('searchapp', '0018_feedback_one_judgment_per_person'),
    ]

    operations = [
        migrations.AddField(
            model_name='feedback',
            name='query_key',
            field=models.CharField(blank=True, help_text="the query's normalised form (searchapp.search.query_keys), which equivalent queries share: a search reads its results' feedback by it", max_length=73),
        ),
        migrations.RunPython(key_queries, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name='feedback',
            index=models.Index(fields=['query_key'], name='feedback_query_key'),
        ),
    ]
