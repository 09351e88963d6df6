"""Celery tasks of the webhooks: ids in, one service call, safe to run twice."""

from celery import shared_task

from webhooks import services

# The attempt itself is bounded by the client's connect and read timeouts.


@shared_task(ignore_result=True, acks_late=True, soft_time_limit=60, time_limit=90)
def delivery_send(delivery_id: str, manual: bool = False) -> None:
    """Post one delivery, if it is still due (its outcome and next try are stored)."""
    services.delivery_send(delivery_id=delivery_id, manual=manual)


@shared_task(ignore_result=True, acks_late=True, soft_time_limit=240, time_limit=300)
def deliveries_send_due() -> None:
    """Periodic (celery beat): every delivery due, whether its task was lost or its backoff
    has run."""
    services.deliveries_send_due()
