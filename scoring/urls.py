"""Page URLs of the scoring app (the API's routes live in :mod:`scoring.api`)."""

from django.urls import path

from scoring import views

app_name = "scoring"

urlpatterns = [
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("offline/", views.offline, name="offline"),
    path("games/new/", views.game_new, name="game-new"),
    path("games/<int:pk>/", views.game_detail, name="game-detail"),
    path("games/<int:pk>/print/", views.game_print, name="game-print"),
    path("games/<int:pk>/pad/", views.game_pad, name="game-pad"),
    path("games/<int:pk>/pad/live/", views.game_pad_sheet, name="game-pad-sheet"),
    path("games/<int:pk>/pad/preview/", views.game_preview, name="game-preview"),
    path("games/<int:pk>/pad/hand/", views.game_hand_add, name="game-hand-add"),
    path("games/<int:pk>/pad/first-dealer/", views.game_first_dealer, name="game-first-dealer"),
    path("games/<int:pk>/pad/undo/", views.game_undo, name="game-undo"),
    path("games/<int:pk>/pad/end/", views.game_end, name="game-end"),
    path("games/<int:pk>/pad/next/", views.game_next, name="game-next"),
    path("games/<int:pk>/pad/reopen/", views.game_reopen, name="game-reopen"),
    path("games/<int:pk>/hands/<int:number>/correct/", views.hand_correct, name="hand-correct"),
    path("games/<int:pk>/hands/<int:number>/dispute/", views.hand_dispute, name="hand-dispute"),
    path("disputes/<int:pk>/rule/", views.dispute_rule, name="dispute-rule"),
]
