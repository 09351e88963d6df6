"""Starting games from the pages: a casual game between two teams, and the next game at a
table whose game is over."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scoring import services
from scoring.engine import EngineError
from scoring.forms import CasualGameForm
from scoring.views.common import (
    _game_or_404,
    _put_errors,
    _refuse_unless_keeper,
    _user,
    post_else_back,
)
from scoring.views.pad import _pad_with_error
from scoring.wording import preset_choices
from tarabish_site.api.errors import ApplicationError


@post_else_back("scoring:game-pad")
@login_required
def game_next(request: HttpRequest, pk: int) -> HttpResponse:
    """Start the next game between the same teams, in the same seats, at the same table."""
    game, _hands = _game_or_404(request, pk)
    refused = _refuse_unless_keeper(request, game)
    if refused is not None:
        return refused
    if not game.is_over:
        return _pad_with_error(request, pk, _("Finish or end this game before starting the next."))
    if services.game_owner_page(game):
        message = _("This game is played for a match: start its next game from the match.")
        return _pad_with_error(request, pk, message)
    try:
        new = services.game_create(
            team_a=game.team_a,
            team_b=game.team_b,
            seats=game.seats,
            ruleset=game.ruleset,
            ruleset_preset=game.ruleset_preset,
            table=game.table,
            created_by=_user(request),
            scorekeepers=list(game.scorekeepers.all()),
            public=game.public,
        )
    except (EngineError, ApplicationError) as exc:
        return _pad_with_error(request, pk, str(exc))
    return redirect("scoring:game-pad", pk=new.pk)


@login_required
def game_new(request: HttpRequest) -> HttpResponse:
    """A casual game between two teams: four names and the rules."""
    form = CasualGameForm(
        request.POST if request.method == "POST" else None, presets=dict(preset_choices())
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = services.game_create_casual(
                team_a=(data["a_one"], data["a_two"]),
                team_b=(data["b_one"], data["b_two"]),
                ruleset_preset=data["ruleset_preset"],
                table=data["table"],
                created_by=_user(request),
                public=data["public"],
            )
        except (EngineError, ApplicationError) as exc:
            _put_errors(form, exc)
        else:
            return redirect("scoring:game-pad", pk=game.pk)
    return render(request, "scoring/game_new.html", {"form": form})
