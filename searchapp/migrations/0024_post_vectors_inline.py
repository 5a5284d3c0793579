from django.db import migrations


class Migration(migrations.Migration):
    """Keep each post's vectors in its row. pgvector's types may be stored out of line (EXTERNAL), and a post with a
    long body had them moved to the TOAST table: the question search's exact scan over 10 k posts read 17,828
    buffers instead of 2,502 (27 against 12 ms), and every candidate's scores paid the same lookups. Rows written
    before this keep their place until the table is rewritten (`VACUUM FULL searchapp_post`)."""

    dependencies = [
        ("searchapp", "0023_occurrence_post_formulas"),
    ]

    operations = [
        migrations.RunSQL("ALTER TABLE searchapp_post ALTER COLUMN embedding SET STORAGE PLAIN,"
                          " ALTER COLUMN fused SET STORAGE PLAIN",
                          "ALTER TABLE searchapp_post ALTER COLUMN embedding SET STORAGE EXTERNAL,"
                          " ALTER COLUMN fused SET STORAGE EXTERNAL"),
    ]
