"""Service-wide records that belong to no game: worker heartbeats, stored API responses."""
