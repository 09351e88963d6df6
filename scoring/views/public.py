"""The pages anyone following a game reads: its score-sheet and its printable sheet."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import conditional_page, require_GET

from scoring import services
from scoring.views.common import _game_or_404, _result_text, abilities, game_context, qr_svg


@require_GET
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game, hands = _game_or_404(request, pk)
    context = game_context(game, hands)
    context["can_write"] = services.user_can_keep_score(request.user, game)
    context.update(abilities(request, game, can_write=context["can_write"]))
    context["owner_page"] = services.game_owner_page(game)  # its match, for anyone following it
    return render(request, "scoring/game_detail.html", context)


@conditional_page  # ETag on what it sends; 304 to a poll that has it already
@require_GET
@cache_control(no_cache=True, private=True)  # asked again each time, with its ETag
def game_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The part of the score-sheet that changes with each hand (score, sheet), which the page
    fetches again when told the game changed, or now and then where no socket holds."""
    game, hands = _game_or_404(request, pk)
    context = game_context(game, hands)
    context["can_write"] = services.user_can_keep_score(request.user, game)
    context.update(abilities(request, game, can_write=context["can_write"]))
    return render(request, "scoring/_game_live.html", context)


@require_GET
def game_print(request: HttpRequest, pk: int) -> HttpResponse:
    """A printable score-sheet. A running game's is for the table: the hands so far, empty lines
    for the next and a QR code that opens its score-pad. A game that is over gets its record:
    the result, every hand with its points, runs and bella, and the rules it was played by."""
    game, hands = _game_or_404(request, pk)
    context = game_context(game, hands)
    if game.is_over:
        context.update({"result_text": _result_text(game), "blank_lines": range(0)})
    else:
        url = request.build_absolute_uri(reverse("scoring:game-pad", args=[pk]))
        context.update(
            {
                "qr": qr_svg(url, _("QR code that opens this game's score-pad")),
                "pad_url": url,
                "blank_lines": range(len(hands) + 1, max(len(hands) + 1, 17)),
            }
        )
    return render(request, "scoring/print.html", context)
