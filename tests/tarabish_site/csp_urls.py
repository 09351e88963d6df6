"""A URLconf for the policy tests: a view that changes the policy for itself, as a bracket
meant to be embedded in other sites would."""

from csp.decorators import csp_replace
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.clickjacking import xframe_options_exempt


@xframe_options_exempt
@csp_replace({"frame-ancestors": ["*"]})
def embeddable(request: HttpRequest) -> HttpResponse:
    return HttpResponse("<p>bracket</p>")


def plain(request: HttpRequest) -> HttpResponse:
    return HttpResponse("<p>page</p>")


urlpatterns = [path("embed/", embeddable), path("plain/", plain)]
