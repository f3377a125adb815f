"""lti/outbound.py: every LMS fetch is https (or allowed http) to public addresses only, checked after DNS for
each request and redirect, connected to the checked address, on the platform's hosts, capped in size and time."""
import datetime
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from lti import outbound
from lti.outbound import AnswerTooLarge, LmsSession, UrlRefused, is_public, url_problem

SECRET = b"INTERNAL-ONLY: db_password=hunter2"


@pytest.mark.parametrize("address", [
    "127.0.0.1", "10.0.0.8", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
    "224.0.0.251", "240.0.0.1", "255.255.255.255", "::1", "::", "fe80::1%eth0", "fc00::1", "ff02::1",
    "::ffff:127.0.0.1", "2002:7f00:1::1",  # IPv4-mapped and 6to4 forms of 127.0.0.1
])
def test_addresses_that_are_not_public(address):
    assert not is_public(address)


@pytest.mark.parametrize("address", ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"])
def test_public_addresses(address):
    assert is_public(address)


@pytest.fixture
def strict(settings):
    settings.STUMPER_LTI_ALLOW_HTTP = False
    settings.STUMPER_LTI_ALLOW_PRIVATE_URLS = False
    return settings


@pytest.fixture
def loopback_is_public(monkeypatch, settings):
    """Production rules (no private address), except that 127.0.0.1 counts as public: the test server stands for
    an LMS on the internet. Every other loopback or private address stays refused."""
    settings.STUMPER_LTI_ALLOW_HTTP = True
    settings.STUMPER_LTI_ALLOW_PRIVATE_URLS = False
    monkeypatch.setattr(outbound, "is_public", lambda address: address == "127.0.0.1")


# --- the registration check ------------------------------------------------------------------------

def test_registration_urls_must_be_https_and_public(strict, dns):
    dns.update({"lms.test": ["93.184.216.34"], "intranet.test": ["10.0.0.5"], "nowhere.test": []})
    assert url_problem("https://lms.test/jwks") == ""
    assert url_problem("http://lms.test/jwks") == "Use an https:// URL."
    for url in ("https://127.0.0.1:8443/jwks", "https://localhost/jwks", "https://intranet.test/jwks",
                "https://[::1]/jwks", "https://169.254.169.254/latest/meta-data/"):
        assert "loopback, private, link-local, multicast or reserved" in url_problem(url), url
    assert "does not resolve" in url_problem("https://nowhere.test/jwks")
    assert url_problem("https://admin:pw@lms.test/jwks") == "Leave user names and passwords out of the URL."
    assert url_problem("https://127.0.0.1/auth", fetched=False) == ""  # a browser goes there, not the server
    assert url_problem("https://[::1/jwks") == "This is not a URL."


def test_the_settings_open_http_and_private_addresses(settings):
    settings.STUMPER_LTI_ALLOW_HTTP = True
    settings.STUMPER_LTI_ALLOW_PRIVATE_URLS = True
    assert url_problem("http://127.0.0.1:8000/jwks") == ""


# --- every fetch -------------------------------------------------------------------------------------

class Server:
    """A local HTTP(S) server; ``hits`` records (path, Host header) of every request."""

    def __init__(self, tls: ssl.SSLContext | None = None):
        self.hits: list[tuple[str, str]] = []
        self.redirect_to = ""
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        if tls is not None:
            self._server.socket = tls.wrap_socket(self._server.socket, server_side=True)
        self.port = self._server.server_port
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                pass

            def _head(self, status: int, **headers) -> None:
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name.replace("_", "-"), value)
                self.end_headers()

            def do_GET(self) -> None:
                server.hits.append((self.path, self.headers.get("Host")))
                if self.path == "/jwks":
                    self._head(200, Content_Type="application/json", Content_Length="11")
                    self.wfile.write(b'{"keys":[]}')
                elif self.path == "/secret":
                    self._head(200, Content_Type="text/plain", Content_Length=str(len(SECRET)))
                    self.wfile.write(SECRET)
                elif self.path == "/redirect":
                    self._head(302, Location=server.redirect_to, Content_Length="0")
                elif self.path == "/big":
                    self._head(200, Content_Length="5000")
                    self.wfile.write(b"x" * 5000)
                elif self.path == "/big-chunked":  # no length announced
                    self._head(200, Transfer_Encoding="chunked")
                    for _ in range(5):
                        self.wfile.write(b"3e8\r\n" + b"x" * 1000 + b"\r\n")
                    self.wfile.write(b"0\r\n\r\n")
                elif self.path == "/trickle":  # a byte every 0.1 s: no single read times out
                    self._head(200, Content_Length="40")
                    for _ in range(40):
                        self.wfile.write(b"x")
                        self.wfile.flush()
                        time.sleep(0.1)

        return Handler


@pytest.fixture
def server():
    running = Server()
    yield running
    running.close()


def test_http_is_refused_unless_allowed(strict, server):
    with pytest.raises(UrlRefused, match="https"):
        LmsSession().get(f"http://127.0.0.1:{server.port}/jwks")
    assert server.hits == []


def test_private_addresses_are_refused_after_resolution(settings, server, dns):
    settings.STUMPER_LTI_ALLOW_HTTP, settings.STUMPER_LTI_ALLOW_PRIVATE_URLS = True, False
    dns["lms.test"] = ["127.0.0.1"]
    for url in (f"http://127.0.0.1:{server.port}/secret", f"http://lms.test:{server.port}/secret",
                f"http://localhost:{server.port}/secret"):
        with pytest.raises(UrlRefused, match="loopback, private"):
            LmsSession().get(url)
    assert server.hits == []  # no connection was made: no open or closed port to tell apart


def test_the_connection_goes_to_the_checked_address_and_each_request_is_checked_again(
        loopback_is_public, server, dns):
    # DNS rebinding: the name answers a public address to the check, then an internal one.
    dns["lms.test"] = ["127.0.0.1", "10.0.0.1"]
    answer = LmsSession().get(f"http://lms.test:{server.port}/jwks")
    assert answer.json() == {"keys": []} and server.hits == [("/jwks", f"lms.test:{server.port}")]
    assert dns.asked == ["lms.test"]  # resolved once, for the check; connected to that address
    with pytest.raises(UrlRefused, match="loopback, private"):  # the next request resolves and checks again
        LmsSession().get(f"http://lms.test:{server.port}/jwks")
    assert len(server.hits) == 1


def test_redirects_are_checked_like_the_first_request(loopback_is_public, server, dns):
    dns.update({"lms.test": ["127.0.0.1"], "internal.test": ["10.1.2.3"], "elsewhere.test": ["127.0.0.1"]})
    server.redirect_to = f"http://internal.test:{server.port}/secret"
    with pytest.raises(UrlRefused, match="internal.test resolves to a loopback, private"):
        LmsSession().get(f"http://lms.test:{server.port}/redirect")
    server.redirect_to = f"http://elsewhere.test:{server.port}/secret"
    with pytest.raises(UrlRefused, match="elsewhere.test is not a host of this LMS registration"):
        LmsSession(hosts={"lms.test"}).get(f"http://lms.test:{server.port}/redirect")
    assert [path for path, _ in server.hits] == ["/redirect", "/redirect"]


def test_a_platform_session_reaches_only_the_platform_hosts(settings, server):
    with pytest.raises(UrlRefused, match="127.0.0.1 is not a host of this LMS registration"):
        LmsSession(hosts={"lms.example"}).get(f"http://127.0.0.1:{server.port}/secret")
    assert server.hits == []
    assert LmsSession(hosts={"127.0.0.1"}).get(f"http://127.0.0.1:{server.port}/jwks").status_code == 200


@pytest.mark.parametrize("path", ["/big", "/big-chunked"])
def test_answers_are_capped_in_size(settings, server, path):
    settings.STUMPER_LTI_HTTP_MAX_BYTES = 1000
    with pytest.raises(AnswerTooLarge):
        LmsSession().get(f"http://127.0.0.1:{server.port}{path}")
    settings.STUMPER_LTI_HTTP_MAX_BYTES = 5000
    assert len(LmsSession().get(f"http://127.0.0.1:{server.port}{path}").content) == 5000


def test_answers_are_capped_in_time(settings, server):
    settings.STUMPER_LTI_HTTP_TIMEOUT = 0.5
    started = time.monotonic()
    with pytest.raises(requests.exceptions.ReadTimeout, match="longer than 0.5 s"):
        LmsSession().get(f"http://127.0.0.1:{server.port}/trickle")
    assert time.monotonic() - started < 2.0  # the whole answer would take 4 s


def _certificate(tmp_path, name: str) -> tuple[str, ssl.SSLContext]:
    """A self-signed certificate for ``name``: (its file, a server TLS context)."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(hours=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    return str(cert_file), context


def test_https_checks_the_certificate_against_the_name_while_connecting_to_the_address(settings, tmp_path, dns):
    settings.STUMPER_LTI_ALLOW_PRIVATE_URLS = True
    dns["lms.test"] = ["127.0.0.1"]
    ca_file, context = _certificate(tmp_path, "lms.test")
    tls_server = Server(tls=context)
    try:
        answer = LmsSession().get(f"https://lms.test:{tls_server.port}/jwks", verify=ca_file)
        assert answer.json() == {"keys": []} and tls_server.hits == [("/jwks", f"lms.test:{tls_server.port}")]
        with pytest.raises(requests.exceptions.SSLError):  # the certificate names lms.test, not the address
            LmsSession().get(f"https://127.0.0.1:{tls_server.port}/jwks", verify=ca_file)
    finally:
        tls_server.close()
