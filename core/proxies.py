"""The client's address when the app runs behind proxies: X-Forwarded-For, believed only from
the proxies named in ``STUMPER_TRUSTED_PROXIES``.

Anyone can send an ``X-Forwarded-For`` header. Believing it from every peer (as daphne's
``--proxy-headers`` does, taking its leftmost, client-written entry) lets a client choose the
address its failed sign-ins are counted under, and so dodge the per-address limit. Here the header
is read from the right, where each trusted proxy appended the peer it saw: the first address that
is not a trusted proxy is the client. Everything that wants the client's address reads
``REMOTE_ADDR``, which ``TrustedProxyMiddleware`` sets from :func:`client_address` once per request.
"""
import ipaddress
from collections.abc import Iterable
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest
from django.utils.deprecation import MiddlewareMixin

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@lru_cache(maxsize=8)
def trusted_networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    """The networks of ``STUMPER_TRUSTED_PROXIES`` (checked when the settings load)."""
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def _address(text: str) -> Address | None:
    """An IP address from a peer or a header entry (``1.2.3.4``, ``1.2.3.4:80``, ``[::1]:80``, ``::1``)."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    # An IPv4 client of a dual-stack socket appears as ::ffff:a.b.c.d.
    return getattr(address, "ipv4_mapped", None) or address


def _trusted(address: Address | None, networks: Iterable[Network]) -> bool:
    return address is not None and any(address in network for network in networks)


def client_address(*, peer: str, forwarded_for: str, trusted: Iterable[Network]) -> str:
    """The client's address: ``peer`` itself, unless ``peer`` is a trusted proxy.

    Then ``forwarded_for`` (the X-Forwarded-For value) is walked from the right over trusted
    proxies to the first address that is not one. An entry that is not an address stops the walk
    at the last proxy (the chain cannot be followed past it). Entries left of the client were
    written by the client and are never read.
    """
    networks = tuple(trusted)
    current = _address(peer)
    if not _trusted(current, networks):
        return peer
    for entry in reversed(forwarded_for.split(",")):
        hop = _address(entry)
        if hop is None:
            break
        current = hop
        if not _trusted(hop, networks):
            break
    return str(current)


def request_client_address(request: HttpRequest) -> str:
    """:func:`client_address` of a request as the server received it."""
    return client_address(
        peer=request.META.get("REMOTE_ADDR", ""),
        forwarded_for=request.META.get("HTTP_X_FORWARDED_FOR", ""),
        trusted=trusted_networks(tuple(settings.STUMPER_TRUSTED_PROXIES)),
    )


class TrustedProxyMiddleware(MiddlewareMixin):
    """Sets ``REMOTE_ADDR`` to the client's address (``request_client_address``), first thing."""

    def process_request(self, request: HttpRequest) -> None:
        request.META["REMOTE_ADDR"] = request_client_address(request)
