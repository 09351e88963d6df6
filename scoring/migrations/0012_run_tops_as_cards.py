"""Results stored before runs wrote their top as a card keep it as a rank alone (``"top":
"Q"``), and the API serves a result as it is stored. Rewrite those runs as the engine now writes
them (``"top": "QS"``), read by the engine's own reader, so every stored result says a card the
same way. Hands and their revisions are read in batches by primary key; a result already in
the card form is left as it is, so running this again changes nothing. Going back leaves the
card form, which the engine reads as well."""

from typing import Any

from django.db import migrations

from scoring.engine.errors import EngineError
from scoring.engine.runs import Run

BATCH = 500


def run_in_card_form(run: Any) -> Any:
    """The run as ``Run.to_json`` writes it now (any other key kept); a run the engine cannot
    read is kept as it is."""
    try:
        return {**run, **Run.from_json(run).to_json()}
    except EngineError:
        return run


def result_in_card_form(result: Any) -> Any:
    """The result with its counted runs in the card form, or None when nothing changes."""
    if not isinstance(result, dict) or not isinstance(result.get("runs_counted"), list):
        return None
    runs = [run_in_card_form(run) for run in result["runs_counted"]]
    if runs == result["runs_counted"]:
        return None
    return {**result, "runs_counted": runs}


def rewrite(model: Any) -> None:
    """Rewrite the results of every row of ``model`` in batches of :data:`BATCH` rows."""
    last = 0
    while True:
        rows = list(model.objects.filter(pk__gt=last).order_by("pk").only("pk", "result")[:BATCH])
        if not rows:
            return
        changed = []
        for row in rows:
            result = result_in_card_form(row.result)
            if result is not None:
                row.result = result
                changed.append(row)
        model.objects.bulk_update(changed, ["result"])
        last = rows[-1].pk


def forwards(apps: Any, schema_editor: Any) -> None:
    rewrite(apps.get_model("scoring", "Hand"))
    rewrite(apps.get_model("scoring", "HandRevision"))


class Migration(migrations.Migration):
    dependencies = [("scoring", "0011_game_totals_revisions")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop, elidable=True)]
