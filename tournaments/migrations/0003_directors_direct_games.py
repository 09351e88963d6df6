"""Tournament directors and organisers named before this change get the right to direct
games, which naming a director now grants (they rule on the disputes of their games)."""

from typing import Any

from django.contrib.auth.management import create_permissions
from django.db import migrations


def grant(apps: Any, schema_editor: Any) -> None:
    tournament_model = apps.get_model("tournaments", "Tournament")
    users = set(tournament_model.directors.through.objects.values_list("user_id", flat=True)) | set(
        tournament_model.objects.exclude(organiser=None).values_list("organiser_id", flat=True)
    )
    if not users:
        return
    scoring = apps.get_app_config("scoring")
    scoring.models_module = True
    create_permissions(scoring, verbosity=0, apps=apps)
    scoring.models_module = None
    permission = apps.get_model("auth", "Permission").objects.get(
        content_type__app_label="scoring", codename="direct_games"
    )
    link = permission.user_set.through
    link.objects.bulk_create(
        [link(user_id=user_id, permission_id=permission.pk) for user_id in users],
        ignore_conflicts=True,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("scoring", "0002_directors_and_pending_disputes"),
        ("tournaments", "0002_stage_match_format_rating_result"),
    ]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
