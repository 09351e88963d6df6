"""Pages and plain-HTTP endpoints of online play, under ``/play/``."""

from django.urls import path

from play import views

app_name = "play"

urlpatterns = [
    path("<int:pk>/state/", views.table_state_view, name="state"),
    path("<int:pk>/move/", views.table_move_view, name="move"),
]
