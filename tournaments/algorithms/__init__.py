"""Pure-Python tournament algorithms: no Django, no database, no I/O.

Modules (each works on small frozen value objects; entry ids are caller-chosen ints/strs):

- :mod:`~tournaments.algorithms.common`: ``EntryId``, ``Pairing``, ``AlgorithmError``.
- :mod:`~tournaments.algorithms.seeding`: ``bracket_order``, ``bracket_size``, ``snake_pools``.
- :mod:`~tournaments.algorithms.round_robin`: ``round_robin``, ``round_robin_pools``.
- :mod:`~tournaments.algorithms.swiss`: ``swiss_round_count``, ``swiss_pair``, ``SwissTeam``.
- :mod:`~tournaments.algorithms.elimination`: ``single_elimination``, ``double_elimination``,
  ``final_placements``.
- :mod:`~tournaments.algorithms.bracket`: ``Bracket``, ``resolve``, ``dependents``,
  ``bracket_document``.
- :mod:`~tournaments.algorithms.standings`: ``MatchResult``, ``standings``, tie-breakers.
"""
