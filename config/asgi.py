"""ASGI entry point: HTTP through Django, websockets through Channels' session auth.

``PreloadModels`` starts loading the process's models on its first event (``config.preload``).
"""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from config.library_logging import quiet_model_loading_as_configured  # noqa: E402
from config.preload import preload_in_background  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from core.job_relay import relay_serves_sockets  # noqa: E402
from core.sockets import SocketRouter  # noqa: E402
from core.websocket_origin import SameOriginValidator  # noqa: E402

relay_serves_sockets()  # this process's sockets are where relayed job pushes go (core.job_relay)


class PreloadModels:
    """ASGI wrapper: the first event of the process starts loading its models in the background.

    That is the lifespan start-up where the server sends one (uvicorn, hypercorn), and the first
    request under daphne, which sends none: the health check or the first sign-in page, well
    before an author opens the authoring page. Not at import, so that importing the application
    (tests, checks) loads nothing; off with ``STUMPER_PRELOAD_MODELS=false``.
    """

    def __init__(self, app) -> None:
        self.app = app
        self.started = False

    async def __call__(self, scope, receive, send):
        if not self.started:
            self.started = True
            quiet_model_loading_as_configured()
            if settings.STUMPER_PRELOAD_MODELS:
                preload_in_background()
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        return await self.app(scope, receive, send)


application = PreloadModels(ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(AuthMiddlewareStack(SocketRouter(websocket_urlpatterns))),
    }
))
