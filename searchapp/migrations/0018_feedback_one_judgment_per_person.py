"""One judgment per person, query and result: a `user` beside the session key, answers (`post`) judged beside
formulas, and unique judgments.

Before this migration every press of Relevant / Not relevant added a row, so one person could hold twelve
"relevant" and a "not relevant" on one formula; the latest of them is what the person means now, so it is kept
and the rest deleted before the constraints are added. Clicks are a log and stay as they are.
"""
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

JUDGMENTS = ("relevant", "not_relevant")


def collapse(apps, schema_editor, query: str = "query"):
    """Keep each person's latest judgment per query (the field `query` names) and result; a person is the user, else
    the session."""
    Feedback = apps.get_model("searchapp", "Feedback")
    judged = Feedback.objects.filter(kind__in=JUDGMENTS)
    for rows, person in [(judged.filter(user__isnull=False), "user_id"), (judged.filter(user__isnull=True), "session_key")]:
        key = (person, query, "formula_id", "post_id")
        latest = rows.order_by(*key, "-created_at", "-id").distinct(*key).values("id")
        rows.exclude(id__in=latest).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('searchapp', '0017_indexjob_counted'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='feedback',
            name='post',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='feedback', to='searchapp.post'),
        ),
        migrations.AddField(
            model_name='feedback',
            name='user',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='feedback', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='feedback',
            name='created_at',
            field=models.DateTimeField(default=django.utils.timezone.now, help_text='when the signal, or the judgment now held, was sent'),
        ),
        migrations.AlterField(
            model_name='feedback',
            name='formula',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='feedback', to='searchapp.formula'),
        ),
        migrations.AlterField(
            model_name='feedback',
            name='fusion',
            field=models.CharField(default='f1', help_text="what ordered the results: a formula search's order, a question's mode", max_length=20),
        ),
        migrations.AlterField(
            model_name='feedback',
            name='query',
            field=models.TextField(help_text='the query as searched, without the spaces around it'),
        ),
        migrations.RunPython(collapse, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='feedback',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('formula__isnull', False), ('post__isnull', True)), models.Q(('formula__isnull', True), ('post__isnull', False)), _connector='OR'), name='feedback_on_a_formula_or_a_post'),
        ),
        migrations.AddConstraint(
            model_name='feedback',
            constraint=models.UniqueConstraint(condition=models.Q(('kind__in', ['relevant', 'not_relevant']), ('user__isnull', False)), fields=('user', 'query', 'formula', 'post'), name='one_judgment_per_user', nulls_distinct=False),
        ),
        migrations.AddConstraint(
            model_name='feedback',
            constraint=models.UniqueConstraint(condition=models.Q(('kind__in', ['relevant', 'not_relevant']), ('user__isnull', True)), fields=('session_key', 'query', 'formula', 'post'), name='one_judgment_per_session', nulls_distinct=False),
        ),
    ]
