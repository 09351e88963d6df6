"""What each error code of the API means, in words that can be translated.

The ``code`` of an error is English and stable: clients branch on it. Its ``message`` (and the
reasons under ``fields``) are for the person at the table, so they are said in the language of
the request (``Accept-Language``, or the language chosen on the pages). The code raising an error
words its English message with the particulars (which hand, which seat); in another language the
message is this table's wording of the code, through the translation catalogue, so no code goes
untranslated however its English message was put together. ``tests/tarabish_site/test_i18n.py``
checks that every code the code raises has its wording here.
"""

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

CODE_MESSAGES: dict[str, str | Promise] = {
    "accused_caller": _("A player cannot call a misplay on themselves: choose who is accused."),
    "accused_partner": _("A misplay is called on a player of the other team."),
    "already_registered": _("This team is already registered."),
    "already_started": _("This has already started."),
    "already_withdrawn": _("This team has already withdrawn."),
    "bad_action": _("This is not an action of the game."),
    "bad_card": _("This is not a card."),
    "bad_cut": _("A cut must leave at least 4 cards in each part."),
    "bad_deal": _("A deal is four hands of nine cards."),
    "bad_deck": _("A deck has 36 different cards."),
    "bad_entry_kind": _("This is not a kind of hand entry."),
    "bad_json": _("The body is not the JSON this address takes."),
    "bad_move": _("This is not a move of the game."),
    "bad_rank": _("This is not a card's rank."),
    "bad_request": _("The request could not be read."),
    "bad_rule": _("There is no such misplay rule."),
    "bad_ruleset": _("The rules given are not valid."),
    "bad_run": _("This is not a run."),
    "bad_run_count": _("The twenties and fifties are counted in whole numbers."),
    "bad_seat": _("A seat is 0 to 3."),
    "bad_seats": _("The two teams share a player: a player sits in one seat only."),
    "bad_suit": _("Trump must be a suit, or no trump."),
    "bad_team": _("This is not one of the game's two teams."),
    "bad_trick": _("A trick is numbered 1 to 9 and holds four cards."),
    "bad_value": _("A value is not valid."),
    "bella_impossible": _("This player cannot have bella."),
    "bella_not_held": _(
        "Bella is the king and queen of trump in one hand: this player did not hold them."
    ),
    "caller_required": _("Every hand needs a caller: under these rules the dealer cannot pass."),
    "cap_below_entries": _("More teams are in already than this cap allows."),
    "card_points_both": _(
        "A thrown-in hand needs both teams' card points as won when it was thrown in."
    ),
    "card_points_impossible": _("These card points are impossible."),
    "card_points_sum": _("The two teams' card points do not add up to the hand's total."),
    "check_in_not_processed": _("Teams are not checked in and seeded yet: process check-in first."),
    "conflict": _("This conflicts with what is stored: read it again and retry."),
    "csv_columns": _("The CSV lacks columns it needs."),
    "csv_empty": _("The CSV holds no teams."),
    "csv_rows_invalid": _("Some rows of the CSV are not valid: nothing was imported."),
    "csv_unreadable": _("The file cannot be read as CSV: nothing was imported."),
    "decided_by_play": _("This result comes from play: correct the hands of its games instead."),
    "dependents_played": _("This change would re-open later matches: a director must confirm it."),
    "director_only": _("Only a director may do this."),
    "dispute_pending": _("This hand already has a misplay dispute waiting for its verdict."),
    "dispute_superseded": _("A later dispute on this hand decides it: rule on that one."),
    "duplicate": _("A value is given more than once."),
    "engine_error": _("The rules of the game refuse this."),
    "evidence_other_hand": _("These tricks are of another hand."),
    "evidence_required": _(
        "A hand entered as a score-sheet line needs its tricks to judge a misplay."
    ),
    "finished": _("A finished tournament's results are final."),
    "first_dealer_chosen": _("The first dealer is already chosen."),
    "forced_call": _("The dealer must call: the hand cannot be passed out."),
    "game_busy": _("The game keeps changing while this hand is entered: try again."),
    "game_changed": _("The game changed since it was read: read it again."),
    "game_in_progress": _(
        "A game that this change would re-open is still being played: finish or end it first."
    ),
    "game_not_over": _("Neither total reaches the target: the game is not over."),
    "game_over": _("This game is over: a director reopens it first."),
    "game_over_before_last_hand": _(
        "With this change the game is over before its last hand: undo the later hands first."
    ),
    "game_owned": _("This game is as public as its tournament: change the tournament instead."),
    "game_running": _("This game is not finished: there is nothing to reopen."),
    "games_set_up_elsewhere": _("This table plays the games its match sets up."),
    "hand_exists": _("This hand was already entered, from another phone or before."),
    "hand_not_over": _("The hand is not over."),
    "hand_number_gap": _("This hand does not follow the last hand entered."),
    "hand_over": _("The hand is over."),
    "hand_undone": _("This hand was undone: it no longer counts."),
    "hands_entered": _("The first dealer cannot change once hands are entered."),
    "idempotency_key_in_flight": _(
        "A request with this Idempotency-Key is still being answered: try again in a moment."
    ),
    "idempotency_key_invalid": _(
        "An Idempotency-Key must be 1 to 255 visible ASCII characters with no spaces, "
        "for example a UUID."
    ),
    "idempotency_key_reused": _("This Idempotency-Key was already used for another request."),
    "illegal_play": _("This play is not allowed by the rules of the game."),
    "impossible_record": _("These tricks could not have been played."),
    "invalid": _("The request is not valid."),
    "invalid_choice": _("This is not one of the values allowed."),
    "invalid_document": _("The document is not valid."),
    "invalid_entry": _("This hand is not valid under the rules of the game."),
    "invalid_if_match": _("If-Match must be one ETag of this API, as it was read."),
    "invalid_slot": _("The winner of a match is slot 0 or 1."),
    "match_not_ready": _("This match is not ready: no game can start."),
    "misplay_and_thrown_in": _("A hand cannot be both thrown in and stopped for a misplay."),
    "missing_field": _("A field that is needed is missing."),
    "negative": _("A number must not be negative."),
    "no_bella": _("There is no bella in a no-trump hand."),
    "no_first_dealer": _("Choose the first dealer before entering hands."),
    "no_hands": _("There is no hand to undo."),
    "no_next_stage": _("There is no next stage."),
    "no_substitutes": _("This team takes no substitutes."),
    "no_trump_not_allowed": _("A trump suit is needed: no trump is not allowed under these rules."),
    "not_a_run": _("These cards are not a run."),
    "not_cutting": _("The deck is not being cut."),
    "not_found": _("There is nothing at this address."),
    "not_player_of_match": _("Only a player of one of this match's teams may do this."),
    "not_playing": _("No hand is being played."),
    "not_ready": _("This match is not ready."),
    "not_reporting_side": _("Only the team that reported this result may withdraw it."),
    "not_seated": _("You do not sit at this table."),
    "not_signed_in": _("Sign in to take a seat."),
    "not_swiss": _("This is not a Swiss stage."),
    "not_totals_only": _("This game was played hand by hand: correct its hands instead."),
    "not_your_seat": _("This is not your seat."),
    "nothing_held": _("No changed result waits for a director in this match."),
    "nothing_next": _("There is nothing to go on to."),
    "odd": _("Only an even number of teams is paired."),
    "order": _("A match is fed by one that does not come before it."),
    "out_of_turn": _("It is not this seat's turn."),
    "own_side_report": _(
        "Your own team reported this result: the other team or a director confirms it."
    ),
    "partner_only": _("Only the partner named confirms this team."),
    "partner_self": _("A team is two players: name your partner, not yourself."),
    "partner_unknown": _("There is no account by this username: ask your partner for theirs."),
    "permission_denied": _("You may not do this."),
    "played_after": _("Later results depend on this one: it cannot change."),
    "player_entered": _("A player of this team is already entered in this tournament."),
    "player_exists": _("This player already exists."),
    "previous_stage_running": _("The stage before is still being played."),
    "quick_result_not_allowed": _("Only a director may record a game by its final totals here."),
    "record_rejected": _("The tricks were rejected, so there is no verdict to rule on."),
    "registration_closed": _("Teams cannot register themselves in this tournament now."),
    "registration_decided": _("This registration was already confirmed, declined or withdrawn."),
    "registration_pending": _(
        "One of these players has a registration waiting here: confirm or withdraw it first."
    ),
    "report_not_pending": _("This reported result was already confirmed, disputed or withdrawn."),
    "report_open": _("This match already has a reported result waiting to be confirmed."),
    "reports_off": _("In this tournament the players do not report results themselves."),
    "request_too_large": _("The request is too large."),
    "result_final": _("This game's result is final."),
    "results_held": _(
        "A changed result waits for a director: confirm the reset or keep the result first."
    ),
    "round_unfinished": _("A match of the current round is not decided yet."),
    "rounds_done": _("Every round of this stage is paired."),
    "ruleset_error": _("The rules chosen are not valid."),
    "run_impossible": _("No run can be like that."),
    "run_not_held": _("That player was not dealt this run."),
    "run_points_impossible": _("Run points are twenties and fifties."),
    "runs_twice": _("Give either the runs shown or the run points, not both."),
    "runs_undecided": _("The counts alone cannot say whose run is best: give the runs shown."),
    "seat_playable": _("This seat can be played by a person."),
    "seat_taken": _("This seat is taken."),
    "seat_waiting": _("A seat waits for its player to sign in."),
    "seats_empty": _("A game starts when all four seats are taken."),
    "seed_taken": _("This seed is already taken."),
    "server_error": _(
        "Something went wrong on the server; nothing is known to have been saved. "
        "Try again in a moment."
    ),
    "sign_in_to_register": _("Sign in to register a team."),
    "sign_in_to_report": _("Sign in to report a result."),
    "slug_taken": _("This address is already taken: choose another."),
    "stage_not_running": _("This stage is not being played."),
    "stage_taken_from": _("A later stage has started from this stage's results: they stand."),
    "stages_unfinished": _("Some stages are not finished."),
    "stale_version": _(
        "It changed since you read it: read it again and send the new ETag in If-Match."
    ),
    "table_key_closed": _("This table sheet opens nothing now."),
    "team_exists": _("This team already exists."),
    "too_few": _("Too few teams for this."),
    "too_few_entries": _("Too few teams: at least two seeded, active teams are needed."),
    "too_many": _("Too many for this."),
    "totals_only": _("This game was recorded by its final totals, without hands."),
    "totals_unchanged": _("The game already has these final totals and this winner."),
    "type": _("A value is not of the type expected."),
    "unfinished": _("The bracket is not finished."),
    "unknown": _("This is not one of the choices."),
    "unknown_event": _("There is no such event to subscribe to."),
    "unknown_field": _("The body has a field this address does not take."),
    "unknown_match": _("There is no such match in this bracket."),
    "unknown_parameter": _("The address has a parameter this list does not take."),
    "unknown_preset": _("There are no such rules."),
    "unknown_switch": _("The rules have a setting that does not exist."),
    "unpairable": _("No pairing exists for this round."),
    "url_refused": _("Webhooks go to the http(s) address of a public host."),
    "user_has_player": _("This account is already linked to a player."),
    "version_required": _("Send the ETag you read in the If-Match header."),
    "void_hand": _("A hand where all passed has no misplay."),
    "void_match": _("This match is not played and takes no result."),
    "winner_needed": _("Both teams passed the target: name the team that won."),
    "withdrawn": _("This team has withdrawn."),
    "wrong_dealer": _("This is not the dealer of this hand."),
    "wrong_status": _("The tournament is not at the stage where this can be done."),
    "wrong_winner": _("The totals say the other team won."),
}
