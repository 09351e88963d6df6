"""Naming a tournament director no longer gives the right to direct every game: a
tournament's directors direct the games of its matches only. The right given to them by
naming (and by migration 0003) is taken back from those who organise no tournament and are
not staff; organisers keep it, since creating a tournament needs it. Going back gives it to
every director again, as 0003 did."""

from typing import Any

from django.db import migrations


def _permission(apps: Any) -> Any:
    return (
        apps.get_model("auth", "Permission")
        .objects.filter(content_type__app_label="scoring", codename="direct_games")
        .first()
    )


def _named_only(apps: Any) -> set[int]:
    """Directors named to a tournament who organise none and are not staff."""
    tournament_model = apps.get_model("tournaments", "Tournament")
    named = set(tournament_model.directors.through.objects.values_list("user_id", flat=True))
    organisers = set(
        tournament_model.objects.exclude(organiser=None).values_list("organiser_id", flat=True)
    )
    staff = set(
        apps.get_model("auth", "User")
        .objects.filter(pk__in=named, is_staff=True)
        .values_list("pk", flat=True)
    )
    return named - organisers - staff


def revoke(apps: Any, schema_editor: Any) -> None:
    permission = _permission(apps)
    users = _named_only(apps)
    if permission is None or not users:
        return
    permission.user_set.through.objects.filter(
        permission_id=permission.pk, user_id__in=users
    ).delete()


def grant_again(apps: Any, schema_editor: Any) -> None:
    permission = _permission(apps)
    users = _named_only(apps)
    if permission is None or not users:
        return
    link = permission.user_set.through
    link.objects.bulk_create(
        [link(user_id=user_id, permission_id=permission.pk) for user_id in users],
        ignore_conflicts=True,
    )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0003_directors_direct_games")]

    operations = [migrations.RunPython(revoke, grant_again)]
