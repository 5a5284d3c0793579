"""Posts as text: the question–answer link, a text vector (HNSW) and full-text terms (GIN) per post,
a context vector per occurrence, and thread pages as an index format."""

import django.contrib.postgres.indexes
import django.contrib.postgres.search
import django.db.models.deletion
import pgvector.django.halfvec
import pgvector.django.indexes
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('searchapp', '0009_formula_structure'),
    ]

    operations = [
        migrations.AddField(
            model_name='occurrence',
            name='context',
            field=pgvector.django.halfvec.HalfVectorField(blank=True, dimensions=384, help_text='the words around the formula embedded by the text encoder, unit length', null=True),
        ),
        migrations.AddField(
            model_name='post',
            name='embedding',
            field=pgvector.django.halfvec.HalfVectorField(blank=True, dimensions=384, help_text='the title and text embedded by the text encoder (ml.text), unit length', null=True),
        ),
        migrations.AddField(
            model_name='post',
            name='parent',
            field=models.ForeignKey(blank=True, help_text='the question this post answers', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='answers', to='searchapp.post'),
        ),
        migrations.AlterField(
            model_name='indexjob',
            name='format',
            field=models.CharField(choices=[('jsonl', 'JSONL posts'), ('arqmath', 'ARQMath formula TSV'), ('visual_ids', 'visual_id_file.tsv'), ('slt_tsv', 'Tangent SLT strings TSV'), ('latex', 'LaTeX, one formula per line'), ('mse_html', 'Math StackExchange thread pages (HTML)')], max_length=20),
        ),
        migrations.AlterField(
            model_name='occurrence',
            name='end',
            field=models.PositiveIntegerField(default=0, help_text='where it ends; 0 for a formula of the title'),
        ),
        migrations.AlterField(
            model_name='occurrence',
            name='start',
            field=models.PositiveIntegerField(default=0, help_text="where the formula's $…$ starts in the post's body"),
        ),
        migrations.AlterField(
            model_name='post',
            name='body',
            field=models.TextField(blank=True, help_text='text with its formulas written $…$ where they stand'),
        ),
        migrations.AddIndex(
            model_name='post',
            index=pgvector.django.indexes.HnswIndex(ef_construction=64, fields=['embedding'], m=16, name='post_embedding_hnsw', opclasses=['halfvec_cosine_ops']),
        ),
        migrations.AddField(
            model_name='post',
            name='words',
            field=models.GeneratedField(db_persist=True, expression=django.contrib.postgres.search.SearchVector('title', 'body', config='english'), help_text='Postgres full-text terms of the title and text (the BM25-like baseline)', output_field=django.contrib.postgres.search.SearchVectorField()),
        ),
        migrations.AddIndex(
            model_name='post',
            index=django.contrib.postgres.indexes.GinIndex(fields=['words'], name='post_words_gin'),
        ),
    ]
