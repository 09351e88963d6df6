"""Starting games from the pages: a casual game between two teams, and the next game at a
table whose game is over."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import services
from scoring.engine import PRESET_NAMES, EngineError
from scoring.forms import CasualGameForm
from scoring.views.common import _game_or_404, _put_errors, _refuse_unless_keeper, _user
from scoring.views.pad import _pad_with_error
from tarabish_site.api.errors import ApplicationError, Conflict


@require_POST
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


def _player(name: str) -> Any:
    """The player of this name (with no community), new if there is none."""
    try:
        return services.player_create(display_name=name)
    except Conflict as exc:
        if exc.code != "player_exists":
            raise
        found = services.player_named(name)  # matched as the name is stored (normalised)
        if found is None:
            raise
        return found


def _team(one: Any, two: Any) -> Any:
    return services.team_find(player_one=one, player_two=two) or services.team_create(
        player_one=one, player_two=two
    )


@login_required
def game_new(request: HttpRequest) -> HttpResponse:
    """A casual game between two teams: four names and the rules."""
    form = CasualGameForm(request.POST if request.method == "POST" else None, presets=PRESET_NAMES)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                a1, a2 = _player(data["a_one"]), _player(data["a_two"])
                b1, b2 = _player(data["b_one"]), _player(data["b_two"])
                game = services.game_create(
                    team_a=_team(a1, a2),
                    team_b=_team(b1, b2),
                    seats=(a1, b1, a2, b2),
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
