"""Permissions. The default is to refuse: every view names what it allows."""

from typing import TYPE_CHECKING

from rest_framework.permissions import BasePermission

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView


class DenyAll(BasePermission):
    """The default permission: nothing is allowed unless a view says so."""

    def has_permission(self, request: "Request", view: "APIView") -> bool:
        return False
