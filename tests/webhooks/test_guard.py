"""Webhooks go to public hosts: loopback, private and link-local addresses are refused unless
a setting allows them; the answer names the field."""

import pytest
from django.test import override_settings

from tarabish_site.api.errors import ValidationFailed
from webhooks import guard


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://127.0.0.1:8000/hook", "loopback"),
        ("http://[::1]/hook", "loopback"),
        ("http://10.1.2.3/hook", "private"),
        ("http://192.168.0.10/hook", "private"),
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
        ("http://[fe80::1]/hook", "link-local"),
        ("http://0.0.0.0/hook", "not a public host"),
        ("http://localhost/hook", "loopback"),
    ],
)
@override_settings(WEBHOOK_ALLOWED_NETWORKS=[])
def test_inner_addresses_are_refused_naming_the_field(url: str, reason: str) -> None:
    with pytest.raises(ValidationFailed) as refused:
        guard.check_url(url)
    assert refused.value.code == "url_refused"
    assert reason in refused.value.fields["url"][0]


@pytest.mark.parametrize(
    "url",
    ["ftp://example.org/hook", "http:///hook", "https://user:pw@203.0.113.9/", "http://h:x/"],
)
def test_what_is_not_an_http_url_with_a_host_is_refused(url: str) -> None:
    with pytest.raises(ValidationFailed) as refused:
        guard.check_url(url)
    assert "url" in refused.value.fields


@override_settings(WEBHOOK_ALLOWED_NETWORKS=[])
def test_a_public_address_is_taken() -> None:
    assert guard.check_url("https://93.184.215.14/hooks") == "https://93.184.215.14/hooks"


@override_settings(WEBHOOK_ALLOWED_NETWORKS=["127.0.0.0/8"])
def test_a_setting_allows_loopback_and_nothing_else() -> None:
    assert guard.check_url("http://127.0.0.1:9/hook")
    with pytest.raises(ValidationFailed):
        guard.check_url("http://10.0.0.1/hook")


@override_settings(WEBHOOK_ALLOWED_NETWORKS=[])
def test_an_ipv4_mapped_ipv6_address_is_judged_as_its_ipv4() -> None:
    with pytest.raises(ValidationFailed, match="loopback"):
        guard.check_url("http://[::ffff:127.0.0.1]/hook")
