from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Tournaments, entries, stages, matches, standings and ratings."""

    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"
