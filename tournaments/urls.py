"""Page URLs of the tournaments app (the API's routes live in :mod:`tournaments.api`)."""

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournament-list"),
    path("tournaments/<slug:slug>/", views.tournament_detail, name="tournament-detail"),
    path(
        "tournaments/<slug:slug>/stages/<int:stage_id>/live/",
        views.stage_live,
        name="stage-live",
    ),
    path("tournaments/<slug:slug>/schedule/", views.schedule, name="schedule"),
    path("tournaments/<slug:slug>/screen/", views.big_screen, name="big-screen"),
    path("tournaments/<slug:slug>/screen/live/", views.big_screen_live, name="big-screen-live"),
    path("tournaments/<slug:slug>/director/", views.director_day, name="director-day"),
    path(
        "tournaments/<slug:slug>/director/live/",
        views.director_day_live,
        name="director-day-live",
    ),
    path("tournaments/<slug:slug>/sheets/", views.round_sheets, name="round-sheets"),
    path("matches/<int:pk>/", views.match_detail, name="match-detail"),
    path("matches/<int:pk>/pad/", views.match_pad, name="match-pad"),
    path("matches/<int:pk>/games/", views.match_game_start, name="match-game-start"),
    path("matches/<int:pk>/forfeit/", views.match_forfeit, name="match-forfeit"),
    path("matches/<int:pk>/confirm-reset/", views.match_reset_confirm, name="match-reset-confirm"),
    path("matches/<int:pk>/keep-result/", views.match_hold_clear, name="match-hold-clear"),
    path("matches/<int:pk>/sheet/", views.match_sheet, name="match-sheet"),
    path("ratings/", views.rating_list, name="rating-list"),
    path("players/<int:pk>/", views.player_detail, name="player-detail"),
    path("teams/<int:pk>/", views.team_detail, name="team-detail"),
]
