"""Signing in and out on the web pages, for every account: scorekeepers and a tournament's
directors as well as staff (the admin's own sign-in takes staff accounts only).

Attempts to sign in are limited per client address at the API's ``login`` rate, as attempts to
obtain a token are, so passwords cannot be guessed faster on the pages than through the API.
"""

from typing import Any

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from tarabish_site.api.throttles import LoginThrottle


class SignInView(auth_views.LoginView):
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        throttle = LoginThrottle()
        if not throttle.allow_request(request, self):  # type: ignore[arg-type]
            form = self.get_form()
            wait = int(throttle.wait() or 1)
            form.add_error(
                None,
                _("Too many attempts to sign in from here: try again in %(seconds)s seconds.")
                % {"seconds": wait},
            )
            response = self.render_to_response(self.get_context_data(form=form), status=429)
            response["Retry-After"] = str(wait)
            return response
        return super().post(request, *args, **kwargs)
