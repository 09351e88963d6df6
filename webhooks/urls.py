"""The director's webhooks pages, under a tournament."""

from django.urls import path

from webhooks import views

app_name = "webhooks"

urlpatterns = [
    path("tournaments/<slug:slug>/webhooks/", views.webhooks_page, name="list"),
    path(
        "tournaments/<slug:slug>/webhooks/<int:pk>/", views.subscription_page, name="subscription"
    ),
    path(
        "tournaments/<slug:slug>/webhooks/<int:pk>/enable/",
        views.subscription_enable,
        name="enable",
    ),
    path(
        "tournaments/<slug:slug>/webhooks/<int:pk>/delete/",
        views.subscription_delete,
        name="delete",
    ),
    path(
        "tournaments/<slug:slug>/webhooks/<int:pk>/deliveries/<str:delivery>/redeliver/",
        views.delivery_redeliver,
        name="redeliver",
    ),
]
