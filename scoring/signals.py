"""Signals the scoring app sends; other apps listen (scoring imports none of them).

``game_result_changed`` is sent after the commit of any change to a game's result: the hand
that ends the game, a hand corrected or undone, a dispute decided, the game ended early or
reopened. It comes with ``sender=Game`` and ``game_id``; receivers reload what they need. A hand
that leaves the game running moves its score but changes no result, so it sends nothing: every
hand of an evening would otherwise wake every receiver.
"""

from django.dispatch import Signal

game_result_changed = Signal()
