"""A URLconf for the error-report test: one view that fails as a bug would."""

from django.http import HttpRequest, HttpResponse
from django.urls import path


def fails(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("the scorekeeper's pad broke")


urlpatterns = [path("fails/", fails)]
