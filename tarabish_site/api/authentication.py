"""How the API knows who is asking: a device token (the API's default authentication class).

Kept apart from the token views so that DRF's settings can import it while views load."""

from hmac import compare_digest
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS, knox_settings
from rest_framework import exceptions

from tarabish_site.core.models import DeviceToken


class DeviceTokenAuthentication(TokenAuthentication):  # type: ignore[misc]  # knox is untyped
    """``Authorization: Token <token>`` with a device token, found in one query.

    knox's own check reads every token of the account on each request to delete the expired
    ones; here an expired token is simply not found (the hourly task deletes it), so checking a
    token costs one indexed query, as DRF's plain tokens did, plus the digest."""

    def authenticate_credentials(self, token: bytes) -> tuple[Any, DeviceToken]:
        text = token.decode("utf-8", errors="replace")
        candidates = DeviceToken.objects.select_related("user").filter(
            Q(expiry__isnull=True) | Q(expiry__gt=timezone.now()),
            token_key=text[: CONSTANTS.TOKEN_KEY_LENGTH],
        )
        digest = hash_token(text)
        for candidate in candidates:
            if compare_digest(digest, candidate.digest):
                if knox_settings.AUTO_REFRESH and candidate.expiry:
                    self.renew_token(candidate)
                user, found = self.validate_user(candidate)
                return user, found
        raise exceptions.AuthenticationFailed(_("Invalid token."))
