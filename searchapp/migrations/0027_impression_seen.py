"""What a person saw of each logged page: only those results count as looks (searchapp.feedback.impressions). Pages
logged before reported nothing, so of them only the ones a click named count: down to the deepest click, as a click
counts from now on. Partial indexes read only the pages someone saw, however many were only served."""

import django.contrib.postgres.fields
from django.db import migrations, models


def seen_down_to_clicks(apps, schema_editor):
    Impression = apps.get_model("searchapp", "Impression")
    Feedback = apps.get_model("searchapp", "Feedback")
    clicked: dict[int, set[int]] = {}
    for page, formula in Feedback.objects.filter(kind="click", impression__isnull=False).values_list(
            "impression_id", "formula_id"):
        clicked.setdefault(page, set()).add(formula)
    for page in Impression.objects.filter(pk__in=list(clicked)).only("formula_ids"):
        deepest = max(place for place, formula in enumerate(page.formula_ids) if formula in clicked[page.pk])
        Impression.objects.filter(pk=page.pk).update(seen=page.formula_ids[:deepest + 1])


class Migration(migrations.Migration):

    dependencies = [
        ('searchapp', '0026_indexjob_cancelled'),
    ]

    operations = [
        migrations.AddField(
            model_name='impression',
            name='seen',
            field=django.contrib.postgres.fields.ArrayField(base_field=models.BigIntegerField(), blank=True, default=list, help_text="the formulas the person's page reported on screen, in page order (searchapp.feedback.impressions.record_looks)", size=None),
        ),
        migrations.RunPython(seen_down_to_clicks, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name='impression',
            index=models.Index(condition=models.Q(('seen', []), _negated=True), fields=['query_key', '-id'], name='impression_looked_at_key'),
        ),
        migrations.AddIndex(
            model_name='impression',
            index=models.Index(condition=models.Q(('seen', []), _negated=True), fields=['-id'], name='impression_looked_at'),
        ),
        migrations.AddIndex(
            model_name='impression',
            index=models.Index(condition=models.Q(('session_key', ''), _negated=True), fields=['session_key', 'query_key'], name='impression_session_query'),
        ),
    ]
