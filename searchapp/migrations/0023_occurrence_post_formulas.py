import django.db.models.deletion
from django.db import migrations, models

NEW = "occurrence_post_position_formula"
KEY_INDEX = "searchapp_occurrence_post_id_05aef285"


class Migration(migrations.Migration):
    """The formulas a post holds read from one index alone: the unique (post, position) index also carries the
    formula, and it serves the post's foreign key, so the key's own index goes. Built concurrently and swapped in
    under the constraint's name: a live index keeps taking posts, and the foreign key is not checked again."""

    atomic = False

    dependencies = [
        ("searchapp", "0022_occurrence_formula_post"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(  # undone with the constraint below, which takes the index with it
                    f"CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS {NEW} ON searchapp_occurrence"
                    " (post_id, position) INCLUDE (formula_id)", migrations.RunSQL.noop),
                migrations.RunSQL(
                    "ALTER TABLE searchapp_occurrence DROP CONSTRAINT occurrence_unique_position,"
                    f" ADD CONSTRAINT occurrence_unique_position UNIQUE USING INDEX {NEW}",
                    "ALTER TABLE searchapp_occurrence DROP CONSTRAINT occurrence_unique_position,"
                    " ADD CONSTRAINT occurrence_unique_position UNIQUE (post_id, position)"),
                migrations.RunSQL(f"DROP INDEX CONCURRENTLY IF EXISTS {KEY_INDEX}",
                                  f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {KEY_INDEX} ON searchapp_occurrence (post_id)"),
            ],
            state_operations=[
                migrations.RemoveConstraint(model_name="occurrence", name="occurrence_unique_position"),
                migrations.AlterField(
                    model_name="occurrence",
                    name="post",
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE,
                                            related_name="occurrences", to="searchapp.post"),
                ),
                migrations.AddConstraint(
                    model_name="occurrence",
                    constraint=models.UniqueConstraint(fields=("post", "position"), include=("formula",),
                                                       name="occurrence_unique_position"),
                ),
            ],
        ),
    ]
