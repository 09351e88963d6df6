"""Pages of the scoring app: the score-pad, the game pages, the printable sheet, and the shell
that lets the score-pad work offline (web app manifest, service worker).

Views read through :mod:`scoring.selectors` and write through :mod:`scoring.services`; what is
left here is shaping for the templates (names of seats, labels, chart points). Hands are
entered by the score-pad's script through the REST API (so they can wait in the phone's outbox
with their idempotency key); the same form also posts here when scripts do not run.
"""
