"""Online play: tables of four in a lobby, the rules engine dealing and judging every card.

An online game is an ordinary :class:`scoring.models.Game`; each finished hand is stored
through :func:`scoring.services.hand_record` as a full trick record, so standings, ratings,
pages and the API treat it as any other game.
"""
