"""BM25's statistics kept by Postgres as posts come and go (`CorpusWords`, `StemCount`).

Statement-level triggers read the rows a statement inserted or deleted (transition tables), so a chunk of 500
posts is one upsert, and posts skipped by ON CONFLICT DO NOTHING are not counted. Stems are upserted in order so
that two jobs indexing at once lock their rows in the same order. A post's title and text never change once
stored (`searchapp.indexing.pipeline` refuses other content under a stored id; the admin shows posts read-only),
so updates need no trigger.
"""

import django.db.models.deletion
from django.db import migrations, models

STEMS = """SELECT corpus_id, stem, count(*) AS posts FROM {rows}, unnest(tsvector_to_array(words)) AS stem
           GROUP BY corpus_id, stem"""
TOTALS = "SELECT corpus_id, count(*) AS posts, coalesce(sum(length(words)), 0) AS stems FROM {rows} GROUP BY corpus_id"

TRIGGERS = f"""
CREATE FUNCTION searchapp_post_words_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO searchapp_stemcount (corpus_id, stem, posts)
        {STEMS.format(rows="added")} ORDER BY stem, corpus_id
        ON CONFLICT (stem, corpus_id) DO UPDATE SET posts = searchapp_stemcount.posts + excluded.posts;
    INSERT INTO searchapp_corpuswords (corpus_id, posts, stems)
        {TOTALS.format(rows="added")} ORDER BY corpus_id
        ON CONFLICT (corpus_id) DO UPDATE SET posts = searchapp_corpuswords.posts + excluded.posts,
                                              stems = searchapp_corpuswords.stems + excluded.stems;
    RETURN NULL;
END $$;

CREATE FUNCTION searchapp_post_words_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    WITH removed_stems AS ({STEMS.format(rows="removed")}),
         emptied AS (DELETE FROM searchapp_stemcount s USING removed_stems r
                     WHERE s.stem = r.stem AND s.corpus_id = r.corpus_id AND s.posts <= r.posts)
    UPDATE searchapp_stemcount s SET posts = s.posts - r.posts FROM removed_stems r
        WHERE s.stem = r.stem AND s.corpus_id = r.corpus_id AND s.posts > r.posts;
    UPDATE searchapp_corpuswords w SET posts = w.posts - r.posts, stems = w.stems - r.stems
        FROM ({TOTALS.format(rows="removed")}) r WHERE w.corpus_id = r.corpus_id;
    RETURN NULL;
END $$;

CREATE TRIGGER post_words_added AFTER INSERT ON searchapp_post REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION searchapp_post_words_added();
CREATE TRIGGER post_words_removed AFTER DELETE ON searchapp_post REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION searchapp_post_words_removed();

INSERT INTO searchapp_stemcount (corpus_id, stem, posts) {STEMS.format(rows="searchapp_post")};
INSERT INTO searchapp_corpuswords (corpus_id, posts, stems) {TOTALS.format(rows="searchapp_post")};
"""

DROP = """
DROP TRIGGER post_words_added ON searchapp_post;
DROP TRIGGER post_words_removed ON searchapp_post;
DROP FUNCTION searchapp_post_words_added();
DROP FUNCTION searchapp_post_words_removed();
"""


class Migration(migrations.Migration):

    dependencies = [
        ('searchapp', '0013_int4_matrices'),
    ]

    operations = [
        migrations.CreateModel(
            name='CorpusWords',
            fields=[
                ('corpus', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='words', serialize=False, to='searchapp.corpus')),
                ('posts', models.BigIntegerField(default=0)),
                ('stems', models.BigIntegerField(default=0)),
            ],
        ),
        migrations.CreateModel(
            name='StemCount',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('stem', models.TextField()),
                ('posts', models.BigIntegerField()),
                ('corpus', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='stems', to='searchapp.corpus')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('stem', 'corpus'), name='stemcount_unique_stem')],
            },
        ),
        migrations.RunSQL(TRIGGERS, DROP),
    ]
