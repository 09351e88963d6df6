"""Page URLs of the tournaments app (the API's routes live in :mod:`tournaments.api`)."""

from django.urls import path

from tournaments.views import (
    director,
    exports,
    matches,
    players,
    public,
    registrations,
    screen,
    setup,
    sheets,
    tables,
)

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", public.tournament_list, name="tournament-list"),
    path("tournaments/new/", setup.tournament_setup_page, name="tournament-setup"),
    path("tournaments/<slug:slug>/", public.tournament_detail, name="tournament-detail"),
    path(
        "tournaments/<slug:slug>/register/",
        registrations.tournament_register,
        name="tournament-register",
    ),
    path(
        "tournaments/<slug:slug>/director/registration/",
        registrations.director_registration,
        name="director-registration",
    ),
    path("registrations/", registrations.my_registrations, name="my-registrations"),
    path(
        "registrations/<int:pk>/confirm/",
        registrations.registration_confirm,
        name="registration-confirm",
    ),
    path(
        "registrations/<int:pk>/withdraw/",
        registrations.registration_withdraw,
        name="registration-withdraw",
    ),
    path(
        "tournaments/<slug:slug>/stages/<int:stage_id>/live/",
        public.stage_live,
        name="stage-live",
    ),
    path("tournaments/<slug:slug>/schedule/", public.schedule, name="schedule"),
    path("tournaments/<slug:slug>/embed/", public.tournament_embed, name="embed"),
    path("tournaments/<slug:slug>/screen/", screen.big_screen, name="big-screen"),
    path("tournaments/<slug:slug>/screen/live/", screen.big_screen_live, name="big-screen-live"),
    path("tournaments/<slug:slug>/director/", director.director_day, name="director-day"),
    path("tournaments/<slug:slug>/export.json", exports.tournament_json, name="export-json"),
    path(
        "tournaments/<slug:slug>/export/<str:table>.csv",
        exports.tournament_csv,
        name="export-csv",
    ),
    path(
        "tournaments/<slug:slug>/director/live/",
        director.director_day_live,
        name="director-day-live",
    ),
    path(
        "tournaments/<slug:slug>/director/reopen/",
        director.director_reopen,
        name="director-reopen",
    ),
    path("tournaments/<slug:slug>/sheets/", sheets.round_sheets, name="round-sheets"),
    path("tournaments/<slug:slug>/scorekeepers/", tables.scorekeepers, name="scorekeepers"),
    path("tournaments/<slug:slug>/table/", tables.table_pin, name="table-pin"),
    path("tournaments/<slug:slug>/tables/<int:table>/", tables.table_pad, name="table-pad"),
    path("tables/<str:token>/", tables.table_claim, name="table-claim"),
    path("matches/<int:pk>/", matches.match_detail, name="match-detail"),
    path("matches/<int:pk>/live/", matches.match_live, name="match-live"),
    path("matches/<int:pk>/pad/", matches.match_pad, name="match-pad"),
    path("matches/<int:pk>/games/", matches.match_game_start, name="match-game-start"),
    path("matches/<int:pk>/forfeit/", matches.match_forfeit, name="match-forfeit"),
    path("matches/<int:pk>/quick-result/", matches.match_quick_result, name="match-quick-result"),
    path("matches/<int:pk>/totals/", matches.match_totals_correct, name="match-totals-correct"),
    path("matches/<int:pk>/report/", matches.match_report, name="match-report"),
    path(
        "matches/<int:pk>/reports/<int:report_id>/<slug:act>/",
        matches.report_act,
        name="report-act",
    ),
    path(
        "matches/<int:pk>/confirm-reset/", matches.match_reset_confirm, name="match-reset-confirm"
    ),
    path("matches/<int:pk>/keep-result/", matches.match_hold_clear, name="match-hold-clear"),
    path("matches/<int:pk>/sheet/", sheets.match_sheet, name="match-sheet"),
    path("ratings/", players.rating_list, name="rating-list"),
    path("players/<int:pk>/", players.player_detail, name="player-detail"),
    path("teams/<int:pk>/", players.team_detail, name="team-detail"),
]
