from django.db import models


class WorkerHeartbeat(models.Model):
    """The last time a Celery worker ran the heartbeat task: proof that the queue is served."""

    hostname = models.CharField(max_length=255, unique=True)
    seen_at = models.DateTimeField()
    beats = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["-seen_at"]

    def __str__(self) -> str:
        return f"{self.hostname} at {self.seen_at:%Y-%m-%d %H:%M:%S}"
