"""Impressions: each page of formula results as served (and, interleaved, which ranker placed each result), and
the impression a click was made on."""

import django.contrib.postgres.fields
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('searchapp', '0019_feedback_query_key'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Impression',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('query', models.TextField(help_text='the query as searched, without the spaces around it')),
                ('formula_ids', django.contrib.postgres.fields.ArrayField(base_field=models.BigIntegerField(), help_text='the formulas shown, in order', size=None)),
                ('offset', models.PositiveIntegerField(default=0, help_text='results before the first shown (earlier pages)')),
                ('teams', models.CharField(blank=True, help_text='interleaved lists: the team of each position, a (installed) or b (candidate)', max_length=1000)),
                ('candidate', models.CharField(blank=True, help_text="interleaved lists: the candidate ranker's id", max_length=40)),
                ('session_key', models.CharField(blank=True, max_length=64)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('corpus', models.ForeignKey(blank=True, help_text='the corpus searched; empty for a search of all corpora', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='impressions', to='searchapp.corpus')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.AddField(
            model_name='feedback',
            name='impression',
            field=models.ForeignKey(blank=True, help_text='a click: the results page it was made on, when the client said', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='clicks', to='searchapp.impression'),
        ),
        migrations.AddIndex(
            model_name='impression',
            index=models.Index(fields=['corpus', 'created_at'], name='impression_corpus_time'),
        ),
        migrations.AddIndex(
            model_name='impression',
            index=models.Index(condition=models.Q(('candidate', ''), _negated=True), fields=['candidate'], name='impression_interleaved'),
        ),
    ]
