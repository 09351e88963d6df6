"""Who may watch a game's live updates (``tarabish_site.live``): whoever may see its pages."""

from __future__ import annotations

from tarabish_site.live import Watcher


def can_watch_game(user: Watcher, key: str) -> bool:
    from scoring.models import Game
    from scoring.selectors import visible_to

    if not key.isdigit():
        return False
    return visible_to(Game.objects.filter(pk=int(key)), user).exists()
