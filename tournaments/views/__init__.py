"""Public and director pages of tournaments: the tournament, its stages (bracket drawn as SVG,
standings with their tie-breakers), matches, the hall's big screen, the director's day, and
player and team pages.

Reads go through :mod:`tournaments.selectors` (and :mod:`scoring.selectors`), writes through
the services; what is here shapes the data for the templates.
"""
