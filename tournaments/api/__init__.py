"""The tournaments API, mounted under ``/api/v1/``."""
