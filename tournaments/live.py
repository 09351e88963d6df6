"""Who may watch a tournament's or a match's live updates (``tarabish_site.live``): whoever may
see its pages."""

from __future__ import annotations

from tarabish_site.live import Watcher


def can_watch_tournament(user: Watcher, key: str) -> bool:
    from tournaments.selectors import tournaments_visible

    return tournaments_visible(user).filter(slug=key).exists()  # type: ignore[arg-type]


def can_watch_match(user: Watcher, key: str) -> bool:
    from tournaments.selectors import tournaments_visible

    if not key.isdigit():
        return False
    return tournaments_visible(user).filter(stages__matches=int(key)).exists()  # type: ignore[arg-type]
