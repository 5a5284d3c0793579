"""The rankers corpora had before they were rows: each corpus's folder `<MATHSEARCH_CORPUS_RANKERS_DIR>/<name>/` held
`ranker.json`, with a "history" of trainings and a "decisions" list, beside the installed model, and `candidate/` the
candidate under test. Each training becomes a row and each decision joins its candidate's; the installed model and
the candidate are copied to their rows' folders (named by the row's id), and the old folders are removed once this
is committed, so a failed migration leaves them as they were."""
import datetime
import json
import shutil
from pathlib import Path

from django.conf import settings
from django.db import migrations, transaction

MODEL_FILE, REPORT_FILE, CANDIDATE = "model.txt", "ranker.json", "candidate"


def rankers_from_folders(apps, schema_editor) -> None:
    corpora, rankers = apps.get_model("searchapp", "Corpus"), apps.get_model("searchapp", "CorpusRanker")
    root = Path(settings.MATHSEARCH_CORPUS_RANKERS_DIR)
    for corpus in corpora.objects.order_by("pk"):
        folder = root / corpus.name
        report = _report(folder)
        if report is None:
            continue
        _rows_of(rankers, corpus, folder, report, root)
        transaction.on_commit(lambda folder=folder: shutil.rmtree(folder, ignore_errors=True))


def _rows_of(rankers, corpus, folder: Path, report: dict, root: Path) -> None:
    history = report.get("history", [])
    decisions = {decision.get("candidate"): decision for decision in report.get("decisions", [])}
    testing = _report(folder / CANDIDATE) or {}
    installed = _installed_entry(history) if (folder / MODEL_FILE).is_file() else None
    for entry in history:
        candidate = entry.get("candidate", "")
        if entry is installed:
            state, source = "installed", folder
        elif candidate and candidate == testing.get("candidate") and (folder / CANDIDATE / MODEL_FILE).is_file():
            state, source = "under test", folder / CANDIDATE
        else:
            state, source = _past_state(entry), None
        training = {key: value for key, value in entry.items() if key not in ("candidate", "installed", "outcome")}
        row = rankers.objects.create(corpus=corpus, trained_at=datetime.datetime.fromisoformat(entry["at"]),
                                     state=state, training=training, candidate=candidate,
                                     decision=decisions.get(candidate) if candidate else None)
        if source is not None:
            _copy_weights(source, root / str(row.pk), corpus.name)
            row.weights = str(row.pk)
            row.save(update_fields=["weights"])


def _installed_entry(history: list[dict]) -> dict | None:
    """The training whose model the folder holds: the last one installed (each installed one replaced the one
    before)."""
    installed = [entry for entry in history if entry.get("outcome") == "installed"
                 or (entry.get("installed") and entry.get("outcome") is None)]
    return installed[-1] if installed else None


def _past_state(entry: dict) -> str:
    """A training no longer serving: installed once (by the loop or `train_ranker`), then replaced; or what the loop
    decided; or, never installed by `train_ranker`, worse offline. A candidate recorded under test whose folder is
    gone serves no more: discarded."""
    outcome = entry.get("outcome")
    if outcome == "installed" or (outcome is None and entry.get("installed")):
        return "replaced"
    if outcome in ("discarded", "worse offline"):
        return outcome
    return "discarded" if outcome == "under test" else "worse offline"


def _copy_weights(source: Path, target: Path, corpus: str) -> None:
    if target.exists():
        raise RuntimeError(f"{target} is in the way of ranker {target.name}'s folder (a corpus named {target.name}?): "
                           f"move it aside and migrate again; corpus {corpus!r}'s rankers are still in {source}")
    target.mkdir(parents=True)
    for name in (MODEL_FILE, REPORT_FILE):
        shutil.copy2(source / name, target / name)


def _report(folder: Path) -> dict | None:
    """The report in `folder`, None without one; one that cannot be read stops the migration, naming it."""
    path = folder / REPORT_FILE
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise RuntimeError(f"cannot read {path} ({error}): mend or remove it and migrate again") from None


class Migration(migrations.Migration):

    dependencies = [
        ("searchapp", "0032_corpus_rankers"),
    ]

    operations = [
        migrations.RunPython(rankers_from_folders, migrations.RunPython.noop),
    ]
