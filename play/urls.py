"""Pages and plain-HTTP endpoints of online play, under ``/play/``."""

from django.urls import path

from play import pages, views

app_name = "play"

urlpatterns = [
    path("", pages.lobby, name="lobby"),
    path("<int:pk>/", pages.table_page, name="table"),
    path("<int:pk>/seat/", pages.table_seat, name="seat"),
    path("<int:pk>/state/", views.table_state_view, name="state"),
    path("<int:pk>/move/", views.table_move_view, name="move"),
]
