import django.db.models.deletion
from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    """The posts holding a formula read from one index alone (formula, post), which also serves the foreign key, so
    the key's own index goes. Built concurrently, first: a live index keeps taking posts, and a formula's deletion
    always has an index to find its occurrences by."""

    atomic = False

    dependencies = [
        ("searchapp", "0021_impression_query_key"),
    ]

    operations = [
        AddIndexConcurrently(
            model_name="occurrence",
            index=models.Index(fields=["formula", "post"], name="occurrence_formula_post"),
        ),
        migrations.AlterField(
            model_name="occurrence",
            name="formula",
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE,
                                    related_name="occurrences", to="searchapp.formula"),
        ),
    ]
