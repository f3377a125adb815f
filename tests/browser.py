"""Shared set-up of the end-to-end tests: real Chromium against a forked Daphne server.

Daphne runs in a forked process (channels' ``ChannelsLiveServerTestCase``) and shares the
file-based SQLite test database with the test process. A subclass names the tiny model it needs
(``build_model``: a ``mlcore.testing`` builder call run in a child process) and gets
``cls.model_dir``, ``cls.browser`` and a clean environment afterwards; ``new_page`` and ``log_in``
give a test its browser pages and sign them in, and ``screenshot`` takes its pictures.

Screenshots: a test always takes them (the code path runs), but writes the docs' pictures into
``docs/img/`` only when asked with ``STUMPER_SCREENSHOTS=1`` (``bash scripts/screenshots.sh``);
otherwise, and for pictures that are not in the docs, into a temporary folder, so a test run
never changes the tracked images.
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from channels.testing import ChannelsLiveServerTestCase
from daphne.testing import DaphneProcess
from django.test import override_settings
from django.urls import reverse

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
DESKTOP = {"width": 1280, "height": 900}
ROOT = Path(__file__).resolve().parent.parent
#: The docs' screenshots, re-taken by the browser tests with STUMPER_SCREENSHOTS=1.
DOCS_IMG = ROOT / "docs" / "img"


def docs_screenshots_wanted() -> bool:
    """True when this run should re-take the docs' screenshots in ``docs/img/``."""
    return os.environ.get("STUMPER_SCREENSHOTS", "") == "1"


def scratch_screenshots() -> Path:
    """Where screenshots go when they are not for the docs: ``$TMPDIR/stumper-screenshots-<checkout>/``.

    Kept after the run for a look, and overwritten by the next one (no pile of folders).
    """
    folder = Path(tempfile.gettempdir()) / f"stumper-screenshots-{ROOT.name}"
    folder.mkdir(exist_ok=True)
    return folder


def build_model_in_child(code: str, directory: Path) -> None:
    """Run ``code`` (which reads the target folder from ``sys.argv[1]``) in a child process.

    This process must not initialise torch's thread pools before Daphne is forked from it.
    """
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    subprocess.run([sys.executable, "-c", code, str(directory)], check=True, env=env, timeout=300)


TINY_MC_MODEL = "import sys; from mlcore.testing import build_tiny_bert; build_tiny_bert(sys.argv[1])"


class ForkSafeDaphneProcess(DaphneProcess):
    """Daphne in the forked child, minus the thread pools the fork copied without their threads.

    Earlier tests in the same run (e.g. the consumer tests) start asgiref's shared
    single-thread executor; the child inherits it with a worker thread that doesn't exist there,
    so every ``database_sync_to_async`` call of a consumer would wait forever. The inference
    services' batchers belong to the parent's event loops and are no use here either. And torch's
    OpenMP thread pool does not survive a fork: in the child of a process that already ran torch
    on two threads, a forward on two threads hangs, so the server's models run on one thread.
    (The test process's live scorers and their ONNX Runtime sessions, which crashed the server when
    it freed them, are set aside in every forked child by ``mlcore.models.incremental`` itself.)
    """

    def run(self) -> None:
        from concurrent.futures import ThreadPoolExecutor

        from asgiref.sync import SyncToAsync

        from modelhub.inference import inference_service, qa_inference_service

        SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
        override_settings(STUMPER_TORCH_THREADS=1).enable()  # only in this child, which never restores it
        inference_service.reset()
        qa_inference_service.reset()
        super().run()


class BrowserTestCase(ChannelsLiveServerTestCase):
    """Live Daphne + headless Chromium; ``build_model`` code builds the model into ``model_dir``.

    A server that dies before the class ends (a crash in a background thread, say) fails the
    class even if the tests after it did not need the server.
    """

    host = "localhost"
    ProtocolServerProcess = ForkSafeDaphneProcess
    build_model = TINY_MC_MODEL

    @classmethod
    def setUpClass(cls) -> None:
        cls._saved_hf_offline = os.environ.get("HF_HUB_OFFLINE")
        os.environ["HF_HUB_OFFLINE"] = "1"  # inherited by the forked server: never try the network
        cls.model_dir = Path(tempfile.mkdtemp(prefix="stumper-e2e-model-"))
        build_model_in_child(cls.build_model, cls.model_dir)
        super().setUpClass()  # forks Daphne
        # Playwright's sync API keeps an event loop in this thread; the ORM calls in the test
        # are still plain synchronous code. Set only after the fork so Daphne keeps the check.
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        from playwright.sync_api import sync_playwright

        try:
            cls.playwright = sync_playwright().start()
            cls.browser = cls.playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        except Exception:
            # tearDownClass won't run after a failed setUpClass: stop the server here.
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
            super().tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls) -> None:
        cls.browser.close()
        cls.playwright.stop()
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        super().tearDownClass()  # stops the server with SIGTERM
        if cls._saved_hf_offline is None:
            os.environ.pop("HF_HUB_OFFLINE", None)
        else:
            os.environ["HF_HUB_OFFLINE"] = cls._saved_hf_offline
        shutil.rmtree(cls.model_dir, ignore_errors=True)
        exitcode = cls._server_process.exitcode
        if exitcode != -signal.SIGTERM:  # e.g. -11, a segmentation fault
            raise AssertionError(f"The live server of {cls.__name__} died before the tests ended (exit code "
                                 f"{exitcode}); pytest -s shows its stderr")

    def new_page(self, viewport: dict[str, int] | None = None, timeout_ms: int = 30_000):
        """A page in a fresh browser context, closed after the test; console errors join ``self.console_errors``."""
        context = self.browser.new_context(viewport=viewport or DESKTOP)
        self.addCleanup(context.close)
        page = context.new_page()
        page.set_default_timeout(timeout_ms)
        errors = self.__dict__.setdefault("console_errors", [])  # one list for all of a test's pages
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        return page

    def open_page(self, timeout_ms: int = 30_000) -> None:
        """A :meth:`new_page` as ``self.page``, its browser context as ``self.context``."""
        self.page = self.new_page(timeout_ms=timeout_ms)
        self.context = self.page.context

    def log_in(self, page, username: str, password: str) -> None:
        """Sign ``page`` in through the login form and wait until the page it leads to has loaded."""
        page.goto(self.url("accounts:login"))
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(password)
        page.locator("main").get_by_role("button", name="Sign in").click()
        page.wait_for_load_state()

    def screenshot(self, target, name: str, *, docs: bool = True, **options) -> Path:
        """Screenshot of a page or a locator as ``<name>.png``; returns where it went.

        ``docs`` pictures (the names of ``docs/img/``) go there only with STUMPER_SCREENSHOTS=1;
        everything else goes to :func:`scratch_screenshots`. ``options`` go to Playwright
        (``full_page=True``).
        """
        folder = DOCS_IMG if docs and docs_screenshots_wanted() else scratch_screenshots()
        path = folder / f"{name}.png"
        target.screenshot(path=str(path), **options)
        return path

    def url(self, name: str, *args) -> str:
        return self.live_server_url + reverse(name, args=args)
