"""The check of the token a score-pad app sends with every request (``Authorization: Token
<key>``). A module of its own: DRF imports it while its views are being defined, so it must
not import them."""

from typing import Any

from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from tarabish_site import rows


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token check, with the token and its account read in one statement made once
    per process. DRF's own builds the same query through the ORM on every request: a quarter
    of a hand entry's time in Python, and as much of every other API request's."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        token: Any = rows.by_pk_with(self.get_model(), key, "user", connection)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)
