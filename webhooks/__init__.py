"""Outbound webhooks: a tournament's director subscribes a URL to its events; each event is
stored with its cause (an outbox row) and posted, signed, by a task after the commit and by a
periodic sweep, with retries, a delivery log and redelivery."""
