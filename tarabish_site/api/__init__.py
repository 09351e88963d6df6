"""API plumbing shared by every app: errors, the exception handler, permissions, pagination."""
