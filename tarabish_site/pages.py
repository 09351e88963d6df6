"""The site's own page: the front page (every other page belongs to an app)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments import services as tournament_services


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """What the service does, with the way in that fits who is looking: a director is offered
    to set up a tournament, someone signed in their registrations, a visitor to sign in."""
    can_set_up = tournament_services.can_create_tournament(request.user)
    return render(request, "home.html", {"can_set_up": can_set_up})
