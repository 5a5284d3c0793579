"""Notation is data: `Formula.notation`, and LaTeX rendered from the SLT for formulas indexed from Tangent strings.

Before this migration a formula indexed from a Tangent SLT string kept that string in `latex`, so KaTeX was asked
to render `[V!x,a[N!2]]`; those rows (and their occurrences) are found by the Tangent form, marked `slt` and
given LaTeX rendered from their stored SLT.
"""
from django.db import migrations, models

BATCH = 2000


def backfill(apps, schema_editor):
    from mathparse import ParseError, slt_to_latex, tree_from_slt_string
    from mathparse.slt_string import looks_like_slt_string

    Formula = apps.get_model("searchapp", "Formula")
    Occurrence = apps.get_model("searchapp", "Occurrence")
    for formula in Formula.objects.filter(latex__startswith="[").only("id", "latex", "slt_string").iterator(BATCH):
        if not looks_like_slt_string(formula.latex):
            continue
        try:
            latex = slt_to_latex(tree_from_slt_string(formula.slt_string))
        except ParseError:
            latex = formula.latex
        Formula.objects.filter(pk=formula.pk).update(notation="slt", latex=latex)
        tangent = [pk for pk, text in Occurrence.objects.filter(formula_id=formula.pk, latex__startswith="[")
                   .values_list("pk", "latex") if looks_like_slt_string(text)]
        Occurrence.objects.filter(pk__in=tangent).update(latex=latex)


class Migration(migrations.Migration):
    dependencies = [("searchapp", "0005_int8_matrices_inline")]

    operations = [
        migrations.AddField(
            model_name="formula", name="notation",
            field=models.CharField(choices=[("latex", "LaTeX"), ("mathml", "MathML"), ("slt", "Tangent SLT string")],
                                   default="latex", help_text="the notation of the first occurrence seen", max_length=6)),
        migrations.AlterField(
            model_name="formula", name="latex",
            field=models.TextField(help_text="LaTeX shown for the formula: the first occurrence's source when its "
                                             "notation is LaTeX, else rendered from its SLT")),
        migrations.AlterField(
            model_name="occurrence", name="latex",
            field=models.TextField(help_text="this occurrence's LaTeX: its source, or rendered from its SLT for another "
                                             "notation")),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
