"""Websocket handshakes from another origin are refused: scheme, host and port are all compared."""
import pytest
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator

from core.websocket_origin import SameOriginValidator

pytestmark = pytest.mark.django_db


class AcceptingConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()


async def _opens(origin: str | None, host: str | None = "localhost:8000", **scope) -> bool:
    headers = [(name, value.encode()) for name, value in ((b"origin", origin), (b"host", host)) if value is not None]
    communicator = WebsocketCommunicator(SameOriginValidator(AcceptingConsumer.as_asgi()), "/ws/test/", headers=headers)
    communicator.scope.update(scope)
    connected, _ = await communicator.connect(timeout=5)
    await communicator.disconnect()
    return connected


@pytest.mark.parametrize(("origin", "opens"), [
    ("http://localhost:8000", True),
    ("http://localhost:9999", False),  # another program on the same machine
    ("http://localhost", False),
    ("https://localhost:8000", False),
    ("http://127.0.0.1:8000", False),
    ("http://localhost:8000.evil.example", False),
    ("null", False),
    (None, False),
])
async def test_only_the_pages_own_origin_may_open_a_socket(origin, opens):
    assert await _opens(origin) is opens


async def test_a_host_that_is_not_allowed_is_refused_even_from_its_own_origin():
    # DNS rebinding: evil.example resolves to this server; the Host header gives it away.
    assert not await _opens("http://evil.example:8000", host="evil.example:8000")


async def test_the_default_port_is_left_out_by_browser_and_host_alike():
    assert await _opens("http://localhost", host="localhost")
    assert not await _opens("http://localhost:80", host="localhost")  # as Django's CSRF check: the exact origin


async def test_behind_a_tls_proxy_the_origin_is_https(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.ALLOWED_HOSTS = ["stumper.example.edu"]
    communicator = WebsocketCommunicator(SameOriginValidator(AcceptingConsumer.as_asgi()), "/ws/test/", headers=[
        (b"origin", b"https://stumper.example.edu"), (b"host", b"stumper.example.edu"),
        (b"x-forwarded-proto", b"https")])
    connected, _ = await communicator.connect(timeout=5)
    await communicator.disconnect()
    assert connected
    assert not await _opens("http://stumper.example.edu", host="stumper.example.edu", scheme="wss")
    assert await _opens("https://stumper.example.edu", host="stumper.example.edu", scheme="wss")


async def test_csrf_trusted_origins_may_open_sockets_too(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://lms.example.edu", "https://*.example.org"]
    assert await _opens("https://lms.example.edu")
    assert await _opens("https://courses.example.org")
    assert not await _opens("http://courses.example.org")
    assert not await _opens("https://lms.example.edu:8443")

