from django.apps import AppConfig


class ScoringConfig(AppConfig):
    """Games, hands and misplay disputes, scored by the rules engine in scoring.engine."""

    name = "scoring"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scoring.live import can_watch_game
        from tarabish_site import live

        live.register(live.GAME, can_watch_game)
