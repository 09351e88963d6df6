"""Signals the scoring app sends; other apps listen (scoring imports none of them).

``game_result_changed`` is sent after the commit of any change to a game's result: the hand
that ends the game, a hand corrected or undone, a dispute decided, the game ended early or
reopened. It comes with ``sender=Game`` and ``game_id``; receivers reload what they need. A hand
that leaves the game running moves its score but changes no result, so it sends nothing: every
hand of an evening would otherwise wake every receiver.

A receiver of ``game_result_changed`` that hands the change to a task answers
:data:`RESULT_TAKEN_LATER`: the change then stays recorded until that task took it in (see
:func:`scoring.services.results.result_changes_taken_in`), so a message lost on its way (the broker
died with it in its queue) is sent again by the periodic task. Any other answer means the receiver
is done with it.

``game_owner_page`` asks whether another app runs a game (a tournament match does), with
``sender=Game`` and ``game``. A receiver that runs it answers with the local path of its page,
where the next game is started so that it counts; the score-pad then sends the scorekeeper there
and starts no game of its own (see :func:`scoring.services.game_owner_page`).

``game_owner_next`` asks the app that runs a game what follows it once it is over, with
``sender=Game`` and ``game``: a receiver answers in words for the score-pad's way back to its
page (the match's next game, or the match or its stage over; see
:func:`scoring.services.game_owner_next`).

``game_owner_warning`` asks the app that runs a game whether its scorekeepers must be warned
of something it decides, with ``sender=Game`` and ``game``: a receiver answers in words for
the score-pad (a held result change in a tournament that would re-open the game's match, and
stop the game counting; see :func:`scoring.services.game_owner_warning`).

``game_directed_by`` asks whether another app makes a user a director of one game, with
``sender=Game``, ``game`` and ``user``: a tournament's directors direct the games of its matches,
and those only. A receiver that makes them one answers True (see
:func:`scoring.services.user_can_direct`). ``games_directed_by`` asks the same of every game at
once, with ``sender=Game`` and ``user``: a receiver answers a query of the ids of the games it
makes them a director of (see :func:`scoring.selectors.visible_to`).

``game_kept_by`` asks whether another app makes a user a scorekeeper of one game, with
``sender=Game``, ``game`` and ``user``: a tournament's named scorekeepers keep score in its
match games, and a table sheet's account in those played at its table. A receiver that makes
them one answers True (see :func:`scoring.services.user_can_keep_score`); they keep score, and
do nothing a director does.

``game_result_final`` asks whether another app holds a game's result as final, with
``sender=Game`` and ``game``: a finished tournament's games stand as its final places were
worked out from them, and a stage's once a later stage has started from its results. A
receiver that holds it answers why, in words for the director; scoring then refuses every
change to the game (reopening it, correcting, undoing, ending it early, a dispute) with 409
``result_final`` (see :func:`scoring.services.refuse_if_result_final`).
"""

from django.dispatch import Signal

game_result_changed = Signal()
#: What a receiver of ``game_result_changed`` answers when a task it sent takes the change in.
RESULT_TAKEN_LATER = "result taken later"
game_owner_page = Signal()
game_owner_next = Signal()
game_owner_warning = Signal()
game_directed_by = Signal()
game_kept_by = Signal()
games_directed_by = Signal()
game_result_final = Signal()
