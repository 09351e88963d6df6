"""The viewset every API app's viewsets build on."""

from typing import Any

from django.http import Http404
from rest_framework import viewsets

from tarabish_site.api.errors import NotFound
from tarabish_site.api.parsers import JSONParser
from tarabish_site.api.routes import ID


class ApiViewSet(viewsets.GenericViewSet[Any]):
    """JSON in, JSON out (writes are throttled, as in every API view); rows by id. A row
    that is not there is named in the 404 ("there is no entry 12")."""

    parser_classes = [JSONParser]
    lookup_value_regex = ID

    def get_object(self) -> Any:
        try:
            return super().get_object()
        except Http404:
            model = self.get_queryset().model
            value = self.kwargs.get(self.lookup_url_kwarg or self.lookup_field, "")
            raise NotFound(f"there is no {model._meta.verbose_name} {value}") from None
