"""A running job is known by the session lock it holds (`searchapp.indexing.pipeline.run_job`), so the heartbeat
that used to guess a dead worker from its age is no longer read."""
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("searchapp", "0006_formula_notation")]

    operations = [migrations.RemoveField(model_name="indexjob", name="heartbeat_at")]
