"""``Authorization: Token <key>``: the account the token belongs to, read in one statement."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request
from rest_framework.test import APIClient, APIRequestFactory

from tarabish_site.api.authentication import TokenAuthentication

pytestmark = pytest.mark.django_db


def _authenticate(key: str) -> Any:
    request = Request(APIRequestFactory().get("/", HTTP_AUTHORIZATION=f"Token {key}"))
    return TokenAuthentication().authenticate(request)


def test_a_token_gives_its_account_in_one_query(django_assert_num_queries: Any) -> None:
    keeper = User.objects.create_user("keeper", first_name="Mary")
    token = Token.objects.create(user=keeper)
    with django_assert_num_queries(1):
        user, found = _authenticate(token.key)
        assert (user.pk, user.username, user.first_name) == (keeper.pk, "keeper", "Mary")
        assert found.user is user  # no second query for the token's account
    assert (found.pk, found.created) == (token.pk, token.created)


def test_an_unknown_token_is_refused() -> None:
    Token.objects.create(user=User.objects.create_user("keeper"))
    with pytest.raises(AuthenticationFailed, match="Invalid token"):
        _authenticate("0" * 40)


def test_the_token_of_an_account_switched_off_is_refused() -> None:
    token = Token.objects.create(user=User.objects.create_user("gone", is_active=False))
    with pytest.raises(AuthenticationFailed, match="inactive"):
        _authenticate(token.key)


def test_the_api_answers_a_bad_token_with_401_in_the_error_shape() -> None:
    token = Token.objects.create(user=User.objects.create_user("keeper"))
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.get("/api/v1/games/").status_code == 200
    api.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    refused = api.get("/api/v1/games/")
    assert refused.status_code == 401
    assert refused.json()["message"] == "Invalid token."
    assert refused.headers["WWW-Authenticate"] == "Token"
