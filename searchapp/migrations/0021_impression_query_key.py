from django.db import migrations, models


class Migration(migrations.Migration):
    """Pages are read by their query's normalised form, as feedback is (`searchapp.search.feedback_boost`); pages
    logged before it have none and are not read by it."""

    dependencies = [
        ("searchapp", "0020_impressions"),
    ]

    operations = [
        migrations.AddField(
            model_name="impression",
            name="query_key",
            field=models.CharField(blank=True, db_index=True, help_text="the query's normalised form (searchapp.search.query_keys)", max_length=73),
        ),
    ]
