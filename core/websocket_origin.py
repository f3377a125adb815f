"""Websockets open only from the site's own pages: the handshake's Origin must be the request's
own origin, scheme, host and port, or one of ``CSRF_TRUSTED_ORIGINS``.

Browsers let any page open a websocket to any server, sending the session cookie along, and
the server learns the page's site only from the ``Origin`` header (cross-site websocket
hijacking). Channels' ``AllowedHostsOriginValidator`` compares the origin's host name with
``ALLOWED_HOSTS`` and ignores scheme and port, so a page on ``http://localhost:9999`` (any other
program on the machine) could use a signed-in user's sockets on ``http://localhost:8000``.
This is the rule Django's CSRF check applies to a form's Origin: the good origin is
``scheme://host`` of the request itself, the scheme ``https`` when the connection or the proxy's
``SECURE_PROXY_SSL_HEADER`` says so, the host the ``Host`` header (which must be in
``ALLOWED_HOSTS``); ``CSRF_TRUSTED_ORIGINS`` adds origins, ``https://*.example.edu`` subdomains.
"""
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain


def _header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def _allowed_hosts() -> list[str]:
    # As Django's HttpRequest.get_host: under DEBUG an empty ALLOWED_HOSTS means the local names.
    if settings.DEBUG and not settings.ALLOWED_HOSTS:
        return [".localhost", "127.0.0.1", "[::1]"]
    return settings.ALLOWED_HOSTS


def _is_secure(scope: dict) -> bool:
    if settings.SECURE_PROXY_SSL_HEADER:
        header, secure_value = settings.SECURE_PROXY_SSL_HEADER
        value = _header(scope, header.removeprefix("HTTP_").replace("_", "-").lower().encode("latin1"))
        if value is not None:
            return value.split(",")[0].strip() == secure_value
    return scope.get("scheme") in ("wss", "https")


def _trusted_origin(origin: str) -> bool:
    """``origin`` is one of ``CSRF_TRUSTED_ORIGINS``, or a subdomain of a ``scheme://*.domain`` one."""
    trusted = settings.CSRF_TRUSTED_ORIGINS
    if origin in trusted:
        return True
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    return any(
        "*" in pattern and urlsplit(pattern).scheme == parsed.scheme
        and is_same_domain(parsed.netloc, urlsplit(pattern).netloc.removeprefix("*"))
        for pattern in trusted
    )


def origin_allowed(scope: dict) -> bool:
    """True when the websocket handshake in ``scope`` comes from a page of this site."""
    origin, host = _header(scope, b"origin"), _header(scope, b"host")
    if not origin or not host:
        return False  # browsers always send both; a client that sends neither is no page of ours
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, _allowed_hosts()):
        return False
    own_origin = f"{'https' if _is_secure(scope) else 'http'}://{host}"
    return origin == own_origin or _trusted_origin(origin)


class SameOriginValidator:
    """ASGI wrapper for the websocket router: a handshake from another origin is refused (403)."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
