from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Tournaments, entries, stages, matches, standings and ratings."""

    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tarabish_site import live
        from tournaments.live import can_watch_match, can_watch_tournament

        live.register(live.TOURNAMENT, can_watch_tournament)
        live.register(live.MATCH, can_watch_match)

        from scoring.signals import (
            game_directed_by,
            game_kept_by,
            game_owner_next,
            game_owner_page,
            game_owner_warning,
            game_result_changed,
            game_result_final,
            games_directed_by,
        )
        from tournaments.receivers import (
            director_of_game,
            final_result_of_game,
            games_of_director,
            held_change_warning,
            keeper_of_game,
            match_next_of_game,
            match_page_of_game,
            on_game_result_changed,
        )

        game_result_changed.connect(
            on_game_result_changed, dispatch_uid="tournaments.game_result_changed"
        )
        game_owner_page.connect(match_page_of_game, dispatch_uid="tournaments.game_owner_page")
        game_owner_next.connect(match_next_of_game, dispatch_uid="tournaments.game_owner_next")
        game_owner_warning.connect(
            held_change_warning, dispatch_uid="tournaments.game_owner_warning"
        )
        game_directed_by.connect(director_of_game, dispatch_uid="tournaments.game_directed_by")
        game_kept_by.connect(keeper_of_game, dispatch_uid="tournaments.game_kept_by")
        games_directed_by.connect(games_of_director, dispatch_uid="tournaments.games_directed_by")
        game_result_final.connect(
            final_result_of_game, dispatch_uid="tournaments.game_result_final"
        )
