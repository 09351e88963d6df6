"""Pure-Python tournament algorithms: no Django, no database, no I/O.

Everything here works on small frozen values. Entries are identified by caller-chosen ids
(``int`` or ``str``, usually entry primary keys); lists of entries are in seed order (the
first is seed 1). Bad input raises :class:`~tournaments.algorithms.common.AlgorithmError`
with ``message``, ``field`` and ``code``, ready for the API error shape.

Modules and what a service layer calls:

``common``
    ``EntryId``, ``Pairing(home, away)``, ``AlgorithmError``.
``seeding``
    ``snake_pools(entries, pool_count)``, ``bracket_order(size)``, ``bracket_size(n)``,
    ``pool_qualifiers(pool_tables, per_pool)`` (seed order for a knockout after pools).
``round_robin``
    ``round_robin(entries, legs=1|2)`` -> ``RoundRobinRound(number, leg, pairings, bye)``;
    ``round_robin_pools(entries, pool_count=, legs=)`` -> ``Pool(number, entries, rounds)``.
``swiss``
    ``swiss_round_count(n)``; ``swiss_teams(standing_rows)`` -> ``SwissTeam(entry, score,
    opponents, byes)``; ``swiss_pair(teams)`` -> ``SwissRound(pairings, bye, rematches,
    floats)``.
``elimination``
    ``single_elimination(entries, third_place=False)``,
    ``double_elimination(entries, grand_final="reset"|"single"|"none")`` -> ``Bracket``;
    ``final_placements(bracket, results)`` -> ``Placement(entry, place)``.
``bracket``
    ``Bracket`` (``matches``: ``BracketMatch(key, side, round, number, slots, reset_of)``,
    ``slots``: ``SlotSource(kind="seed"|"winner"|"loser"|"bye", seed, match)``,
    ``feeds(key)``, ``round_count()``); ``resolve(bracket, results)`` -> ``BracketState``
    (``matches[key]``: ``MatchState(status="pending"|"ready"|"decided"|"void", entries,
    winner_slot, winner, loser)``, ``champion``, ``finished``, ``with_status(status)``);
    ``dependents(bracket, key)``; ``change_result(bracket, results, key, slot,
    reset_later=False)``; ``bracket_document(bracket, results, names=None)`` -> JSON dict.
``standings``
    ``MatchResult(home, away, winner, home_games, away_games, home_points, away_points,
    home_baits, away_baits)``; ``standings(entries, results, tiebreakers=...)`` ->
    ordered ``StandingRow`` tuple; ``TIEBREAKERS``, ``DEFAULT_TIEBREAKERS``,
    ``SWISS_TIEBREAKERS``.

A bracket is rebuilt at will from the stage's entries and options (the build functions are
deterministic), so only the match keys and the results ``{key: winning slot 0|1}`` need to
be stored; ``resolve`` then says who plays where and what is ready.
"""
