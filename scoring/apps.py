from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    """Games, hands and misplay disputes, scored by the rules engine in scoring.engine."""

    name = "scoring"
    verbose_name = _("Scoring")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scoring.live import can_watch_game
        from tarabish_site import live

        live.register(live.GAME, can_watch_game)
