"""Signals the scoring app sends; other apps listen (scoring imports none of them).

``game_result_changed`` is sent after the commit of any change to a game's result (a hand
entered, corrected or undone, a dispute decided, the game ended early or reopened), with
``sender=Game`` and ``game_id``. Receivers reload what they need.
"""

from django.dispatch import Signal

game_result_changed = Signal()
