"""Where a webhook may be sent: a public http(s) address, never the service's own network.

A URL whose host resolves to a loopback, private, link-local, multicast, reserved or
unspecified address is refused, unless it falls in ``WEBHOOK_ALLOWED_NETWORKS`` (the loopback
networks by default outside production, so a receiver on the same machine works in
development and tests). The check runs when a subscription is saved and again on every
attempt, against the addresses the request then connects to (a name that later resolves to an
inner address is caught then).
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import SplitResult, urlsplit

from django.conf import settings

from tarabish_site.api.errors import ValidationFailed

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class AddressRefused(ValueError):
    """The URL cannot be used: its reason, in words."""


def _allowed(address: Address) -> bool:
    for network in getattr(settings, "WEBHOOK_ALLOWED_NETWORKS", ()):
        if address in ipaddress.ip_network(network, strict=False):
            return True
    return False


def address_refused(address: Address) -> str | None:
    """Why a webhook may not be sent to ``address``; None when it may."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if _allowed(address):
        return None
    if address.is_unspecified:
        return "an address that is not a public host"
    if address.is_loopback:
        return "a loopback address"
    if address.is_link_local:
        return "a link-local address"
    if address.is_private:
        return "a private address"
    if not address.is_global:
        return "an address that is not a public host"
    return None


def parse(url: str) -> SplitResult:
    """The parts of an http(s) URL with a host, or :class:`AddressRefused`."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise AddressRefused("a webhook URL starts with https:// or http://")
    if not parts.hostname:
        raise AddressRefused("a webhook URL names a host")
    if parts.username or parts.password:
        raise AddressRefused("a webhook URL carries no user name or password")
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise AddressRefused("the URL's port is not a number") from None
    return parts


def resolve(url: str) -> tuple[SplitResult, list[tuple[Address, int]]]:
    """The URL's parts and every address (with its port) its host resolves to, each allowed;
    :class:`AddressRefused` when one is not or the host does not resolve."""
    parts = parse(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise AddressRefused(f"the host {host} does not resolve") from None
    addresses: list[tuple[Address, int]] = []
    for _family, _type, _proto, _name, sockaddr in found:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        why = address_refused(address)
        if why is not None:
            raise AddressRefused(
                f"{host} resolves to {address}, {why}: webhooks go to public hosts"
            )
        if (address, port) not in addresses:
            addresses.append((address, port))
    if not addresses:
        raise AddressRefused(f"the host {host} does not resolve")
    return parts, addresses


def check_url(url: str, field: str = "url") -> str:
    """``url`` as given, or :class:`ValidationFailed` naming ``field`` and why."""
    try:
        resolve(url)
    except AddressRefused as exc:
        raise ValidationFailed(str(exc), code="url_refused", fields={field: [str(exc)]}) from None
    return url
