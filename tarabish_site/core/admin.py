from django.contrib import admin
from django.http import HttpRequest

from tarabish_site.core.models import IdempotencyRecord, WorkerHeartbeat


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin[WorkerHeartbeat]):
    list_display = ["hostname", "seen_at", "beats"]
    readonly_fields = ["hostname", "seen_at", "beats"]


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin[IdempotencyRecord]):
    list_display = ["created_at", "user", "method", "path", "status_code", "key"]
    list_filter = ["method", "status_code"]
    search_fields = ["key", "path", "user__username"]
    date_hierarchy = "created_at"
    readonly_fields = [field.name for field in IdempotencyRecord._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
