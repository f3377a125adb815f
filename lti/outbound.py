"""The one way the tool fetches from an LMS: key sets, tokens, rosters (NRPS), line items and scores (AGS).

Every URL, including those that arrive inside launch claims and every redirect, must

- use https (http only with ``STUMPER_LTI_ALLOW_HTTP``);
- resolve to public addresses only: no loopback, private, link-local, multicast, reserved or unspecified
  ones (unless ``STUMPER_LTI_ALLOW_PRIVATE_URLS``). The name is resolved for each request and the
  connection goes to the address that was checked, so a name that changes between the check and the
  connection (DNS rebinding) reaches nothing new; for https the certificate is still checked against the name;
- for a platform's services, be on one of its hosts (``Platform.service_hosts``).

Answers are read in full here, at most ``STUMPER_LTI_HTTP_MAX_BYTES`` and ``STUMPER_LTI_HTTP_TIMEOUT`` seconds
in all. Environment proxies are not used: the connection must go to the checked address.
"""
import ipaddress
import socket
import time
from collections.abc import Collection
from urllib.parse import SplitResult, urlsplit

import requests
import urllib3
from django.conf import settings
from requests.adapters import HTTPAdapter

CHUNK_BYTES = 64 * 1024
MAX_REDIRECTS = 3


class UrlRefused(requests.exceptions.InvalidURL):
    """The tool may not fetch this URL (scheme, address or host rule). A RequestException, so that every
    caller's handling of a failed LMS request covers it."""


class AnswerTooLarge(requests.exceptions.RequestException):
    """The LMS's answer is larger than ``STUMPER_LTI_HTTP_MAX_BYTES``."""


def _schemes() -> tuple[str, ...]:
    return ("https", "http") if settings.STUMPER_LTI_ALLOW_HTTP else ("https",)


def _split(url: str) -> tuple[SplitResult | None, str]:
    """The parts of ``url`` and "" if the tool may ask for it in this form; else None or the parts, and why not."""
    try:
        parts = urlsplit(url or "")
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:  # a bad IPv6 literal or port
        return None, "This is not a URL."
    if parts.scheme not in _schemes():
        return parts, "Use an https:// URL." if not settings.STUMPER_LTI_ALLOW_HTTP else "Use an https:// or http:// URL."
    if not parts.hostname or not 0 < port < 65536:
        return parts, "This URL has no host."
    if parts.username is not None or parts.password is not None:
        return parts, "Leave user names and passwords out of the URL."
    return parts, ""


def _port(parts: SplitResult) -> int:
    return parts.port or (443 if parts.scheme == "https" else 80)


def is_public(address: str) -> bool:
    """Whether ``address`` is a public unicast address (IPv4-mapped, 6to4 and Teredo IPv6 judged by the
    IPv4 address they carry)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # a link-local IPv6 address may carry a zone
    if ip.version == 6:
        embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if embedded is not None and not is_public(str(embedded)):
            return False
    return ip.is_global and not ip.is_multicast


def resolve_checked(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to now, all of them allowed; else ``UrlRefused``."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise UrlRefused(f"the host name {host} does not resolve") from exc
    addresses = list(dict.fromkeys(info[4][0] for info in infos))
    if not addresses:
        raise UrlRefused(f"the host name {host} does not resolve")
    if not settings.STUMPER_LTI_ALLOW_PRIVATE_URLS and not all(is_public(a) for a in addresses):
        raise UrlRefused(f"{host} resolves to a loopback, private, link-local, multicast or reserved address")
    return addresses


def url_problem(url: str, *, fetched: bool = True) -> str:
    """Why the tool may not use ``url`` ("" when it may): its form and, when the tool ``fetched`` it (rather
    than a browser), the addresses its host resolves to now. For forms and registration; every fetch checks
    again."""
    parts, problem = _split(url)
    if problem or not fetched or settings.STUMPER_LTI_ALLOW_PRIVATE_URLS:
        return problem
    try:
        resolve_checked(parts.hostname, _port(parts))
    except UrlRefused as exc:
        return f"Stumper will not fetch this URL: {exc}."
    return ""


def service_url_ok(url: str, hosts: Collection[str]) -> bool:
    """Whether the tool may call ``url`` for a service of an LMS on ``hosts`` (lower-case host names): its form
    is fine and its host is one of them. Its addresses are checked when it is fetched."""
    parts, problem = _split(url)
    return not problem and parts.hostname in hosts


class _CheckedAdapter(HTTPAdapter):
    """Checks each request (redirects too) before it leaves, connects to the checked address, and reads the
    answer within the size and time limits."""

    def __init__(self, hosts: Collection[str] | None):
        self.hosts = None if hosts is None else frozenset(h.lower() for h in hosts)
        super().__init__(max_retries=0)

    def send(self, request, stream=False, timeout=None, verify=True, cert=None, proxies=None):
        parts, problem = _split(request.url)
        if problem:
            raise UrlRefused(f"{request.url}: {problem}", request=request)
        if self.hosts is not None and parts.hostname not in self.hosts:
            raise UrlRefused(f"{parts.hostname} is not a host of this LMS registration", request=request)
        address = resolve_checked(parts.hostname, _port(parts))[0]
        request.lti_checked_address = address
        request.headers["Host"] = parts.netloc.rpartition("@")[2]
        deadline = time.monotonic() + settings.STUMPER_LTI_HTTP_TIMEOUT
        response = super().send(request, stream=True, timeout=timeout, verify=verify, cert=cert, proxies={})
        _read_within_limits(response, deadline)
        return response

    def build_connection_pool_key_attributes(self, request, verify, cert=None):
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(request, verify, cert)
        address = getattr(request, "lti_checked_address", None)
        if address is None:  # only send() reaches here, after its check
            raise UrlRefused("an unchecked request", request=request)
        if host_params["scheme"] == "https":
            pool_kwargs["server_hostname"] = host_params["host"]  # SNI and the certificate: the name
        host_params["host"] = address  # the connection: the address that was checked
        return host_params, pool_kwargs


def _read_within_limits(response: requests.Response, deadline: float) -> None:
    """Read the whole answer into ``response.content``: at most ``STUMPER_LTI_HTTP_MAX_BYTES`` (decompressed),
    and until ``deadline``, checked after every receive (``read1``: one receive, so a trickle cannot hold it)."""
    limit = settings.STUMPER_LTI_HTTP_MAX_BYTES
    chunks, size = [], 0
    try:
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > limit:
            raise AnswerTooLarge(f"the answer has {declared} bytes, more than {limit}", response=response)
        while chunk := response.raw.read1(CHUNK_BYTES, decode_content=True):
            size += len(chunk)
            if size > limit:
                raise AnswerTooLarge(f"the answer is longer than {limit} bytes", response=response)
            if time.monotonic() > deadline:
                raise requests.exceptions.ReadTimeout(
                    f"the answer took longer than {settings.STUMPER_LTI_HTTP_TIMEOUT:g} s", response=response)
            chunks.append(chunk)
    except requests.RequestException:  # ours above (an OSError too, as every RequestException)
        raise
    except urllib3.exceptions.ReadTimeoutError as exc:
        raise requests.exceptions.ReadTimeout(exc, response=response) from exc
    except (urllib3.exceptions.HTTPError, OSError) as exc:
        raise requests.exceptions.ConnectionError(exc, response=response) from exc
    finally:
        response.close()
    response._content = b"".join(chunks)  # requests' own cache of a read body (Response.content)


class LmsSession(requests.Session):
    """The requests session of every LMS request (pylti1p3's ``requests_session`` too).

    ``hosts``: the only hosts it may reach (a platform's ``service_hosts()``); None for the launch, whose
    only fetch is the key set URL of the registration."""

    def __init__(self, *, hosts: Collection[str] | None = None):
        super().__init__()
        self.trust_env = False  # no proxy or .netrc from the environment
        self.max_redirects = MAX_REDIRECTS
        self.headers["User-Agent"] = "Stumper-LTI"
        adapter = _CheckedAdapter(hosts)
        self.mount("https://", adapter)
        self.mount("http://", adapter)

    def request(self, method, url, **kwargs):
        # requests has no session-wide timeout; a platform that never answers must not hold a worker.
        kwargs.setdefault("timeout", settings.STUMPER_LTI_HTTP_TIMEOUT)
        return super().request(method, url, **kwargs)
