from django.apps import AppConfig


class PlayConfig(AppConfig):
    """Tables of four played online, each game a scoring game."""

    name = "play"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from play.live import TABLE, can_watch_table
        from tarabish_site import live

        live.register(TABLE, can_watch_table)
