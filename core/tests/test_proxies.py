"""The client's address behind proxies: X-Forwarded-For is believed only from STUMPER_TRUSTED_PROXIES."""
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from core.proxies import TrustedProxyMiddleware, client_address, trusted_networks

ROOT = Path(__file__).resolve().parents[2]
PROXIES = trusted_networks(("10.0.0.0/8", "2001:db8::/32", "192.0.2.1"))


@pytest.mark.parametrize(("peer", "forwarded_for", "expected"), [
    # A client that connects directly: its header, whatever it says, is not read.
    ("203.0.113.7", "198.51.100.1", "203.0.113.7"),
    ("203.0.113.7", "", "203.0.113.7"),
    # Through one trusted proxy: the address it appended.
    ("10.0.0.5", "203.0.113.7", "203.0.113.7"),
    ("192.0.2.1", "203.0.113.7", "203.0.113.7"),
    # Entries the client wrote itself stand left of it and are never read.
    ("10.0.0.5", "198.51.100.1, 203.0.113.7", "203.0.113.7"),
    # Through two trusted proxies: walked from the right to the first untrusted address.
    ("10.0.0.5", "198.51.100.1, 203.0.113.7, 10.1.2.3", "203.0.113.7"),
    # Ports and IPv6 as proxies write them.
    ("10.0.0.5", "203.0.113.7:51234", "203.0.113.7"),
    ("2001:db8::1", "[2001:db8:ffff::9]:443, 2001:db8::2", "2001:db8:ffff::9"),
    ("::ffff:10.0.0.5", "203.0.113.7", "203.0.113.7"),
    # A trusted proxy with no header (its own health check), or a header that is not an address.
    ("10.0.0.5", "", "10.0.0.5"),
    ("10.0.0.5", "unknown", "10.0.0.5"),
    ("10.0.0.5", "203.0.113.7, unknown", "10.0.0.5"),
    ("10.0.0.5", "10.0.0.6", "10.0.0.6"),
])
def test_client_address(peer, forwarded_for, expected):
    assert client_address(peer=peer, forwarded_for=forwarded_for, trusted=PROXIES) == expected


def test_without_trusted_proxies_the_header_is_never_read():
    assert client_address(peer="10.0.0.5", forwarded_for="203.0.113.7", trusted=()) == "10.0.0.5"


@pytest.mark.parametrize(("trusted", "expected"), [([], "10.0.0.5"), (["10.0.0.0/24"], "203.0.113.7")])
def test_the_middleware_sets_remote_addr_from_the_settings(settings, trusted, expected):
    settings.STUMPER_TRUSTED_PROXIES = trusted
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR="203.0.113.7")
    seen = []
    TrustedProxyMiddleware(lambda r: seen.append(r.META["REMOTE_ADDR"]) or HttpResponse())(request)
    assert seen == [expected]


def test_a_bad_trusted_proxy_stops_the_settings_from_loading():
    env = {"PATH": "", "SECRET_KEY": "x", "STUMPER_ENV_FILE": "/dev/null", "STUMPER_TRUSTED_PROXIES": "10.0.0.0/8,proxy.local",
           "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    result = subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "STUMPER_TRUSTED_PROXIES: 'proxy.local' is not an IP address or network." in result.stderr


def test_the_image_does_not_let_daphne_believe_forwarded_headers():
    # daphne --proxy-headers believes X-Forwarded-For from any peer, and its leftmost (client-written)
    # entry at that: the address must come from the middleware above instead.
    dockerfile = (ROOT / "docker" / "web.Dockerfile").read_text()
    [command] = re.findall(r"^CMD (.*)$", dockerfile, flags=re.MULTILINE)
    assert command.startswith('["daphne"') and "--proxy-headers" not in command
