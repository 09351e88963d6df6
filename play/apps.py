from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayConfig(AppConfig):
    """Tables of four played online, each game a scoring game."""

    name = "play"
    verbose_name = _("Play")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from play.live import TABLE, can_watch_table
        from tarabish_site import live

        live.register(TABLE, can_watch_table)
