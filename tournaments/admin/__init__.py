"""Admin: every director step as an action, and lists that show the state of the day.

One module a model family; importing them registers their admins."""

from tournaments.admin import derived, entries, matches, registrations, stages, tournaments

__all__ = ["derived", "entries", "matches", "registrations", "stages", "tournaments"]
