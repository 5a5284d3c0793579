"""Node matrices from int8 (×127) to 4-bit levels (`searchapp.vectors`): half the bytes a node."""
import numpy as np
from django.db import migrations, models

CLIP, STEP = 0.3, 0.6 / 15
"""As `searchapp.vectors` had them when this migration was written: the migration must not change with it."""


def int8_to_int4(apps, schema_editor):
    Formula = apps.get_model("searchapp", "Formula")
    for formula in Formula.objects.only("slg_matrix", "opg_matrix").iterator(chunk_size=2000):
        for field in ("slg_matrix", "opg_matrix"):
            values = np.frombuffer(bytes(getattr(formula, field)), dtype=np.int8).astype(np.float32) / 127
            levels = np.clip(np.rint((values + CLIP) / STEP), 0, 15).astype(np.uint8)
            setattr(formula, field, (levels[0::2] << 4 | levels[1::2]).tobytes())
        formula.save(update_fields=["slg_matrix", "opg_matrix"])


class Migration(migrations.Migration):

    dependencies = [
        ("searchapp", "0012_pending_postings"),
    ]

    operations = [
        migrations.AlterField(
            model_name="formula",
            name="opg_matrix",
            field=models.BinaryField(help_text="4-bit node vectors (n_opt, dim), two components a byte; empty without an OPT"),
        ),
        migrations.AlterField(
            model_name="formula",
            name="slg_matrix",
            field=models.BinaryField(help_text="4-bit node vectors (n_slt, dim), two components a byte, pre-order"),
        ),
        migrations.RunPython(int8_to_int4, migrations.RunPython.noop),
    ]
