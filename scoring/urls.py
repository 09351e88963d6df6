"""Page URLs of the scoring app (the API's routes live in :mod:`scoring.api`)."""

from django.urls import path

from scoring.views import corrections, games, pad, public, shell

app_name = "scoring"

urlpatterns = [
    path("manifest.webmanifest", shell.manifest, name="manifest"),
    path("sw.js", shell.service_worker, name="service-worker"),
    path("offline/", shell.offline, name="offline"),
    path("games/new/", games.game_new, name="game-new"),
    path("games/<int:pk>/", public.game_detail, name="game-detail"),
    path("games/<int:pk>/print/", public.game_print, name="game-print"),
    path("games/<int:pk>/live/", public.game_live, name="game-live"),
    path("games/<int:pk>/pad/", pad.game_pad, name="game-pad"),
    path("games/<int:pk>/pad/live/", pad.game_pad_sheet, name="game-pad-sheet"),
    path("games/<int:pk>/pad/hand/", pad.game_hand_add, name="game-hand-add"),
    path("games/<int:pk>/pad/first-dealer/", pad.game_first_dealer, name="game-first-dealer"),
    path("games/<int:pk>/pad/undo/", pad.game_undo, name="game-undo"),
    path("games/<int:pk>/pad/end/", pad.game_end, name="game-end"),
    path("games/<int:pk>/pad/next/", games.game_next, name="game-next"),
    path("games/<int:pk>/pad/reopen/", corrections.game_reopen, name="game-reopen"),
    path(
        "games/<int:pk>/hands/<int:number>/correct/", corrections.hand_correct, name="hand-correct"
    ),
    path(
        "games/<int:pk>/hands/<int:number>/dispute/", corrections.hand_dispute, name="hand-dispute"
    ),
    path("disputes/<int:pk>/rule/", corrections.dispute_rule, name="dispute-rule"),
]
