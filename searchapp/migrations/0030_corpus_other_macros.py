from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("searchapp", "0029_index_parts"),
    ]

    operations = [
        migrations.AddField(
            model_name="corpus",
            name="other_macros",
            field=models.JSONField(blank=True, default=dict, help_text="the other definitions its documents give a name of `macros`, most common first (name → [Macro.to_json()]): a query is read with each that fits it too"),
        ),
    ]
