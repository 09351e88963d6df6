from django.contrib import admin

from tarabish_site.core.models import WorkerHeartbeat


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin[WorkerHeartbeat]):
    list_display = ["hostname", "seen_at", "beats"]
    readonly_fields = ["hostname", "seen_at", "beats"]
