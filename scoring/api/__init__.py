"""The scoring REST API (``/api/v1/``): players, teams, games, hands and misplay disputes."""
