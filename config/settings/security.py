"""Settings of two defences of the web process, read by base.py (after it has read ``.env``):
which proxies may say who the client is, and the Content-Security-Policy of every response.
"""
import ipaddress

import environ
from django.core.exceptions import ImproperlyConfigured

__all__ = ["STUMPER_CONTENT_SECURITY_POLICY", "STUMPER_TRUSTED_PROXIES"]
env = environ.Env()

# Proxies (load balancer, TLS terminator) whose X-Forwarded-For is believed: addresses or networks
# (CIDR), comma-separated. From any other peer the header is ignored, so a client cannot choose the
# address its failed sign-ins are counted under (core/proxies.py). Empty: clients connect directly.
STUMPER_TRUSTED_PROXIES = env.list("STUMPER_TRUSTED_PROXIES", default=[])
for _proxy in STUMPER_TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(f"STUMPER_TRUSTED_PROXIES: {_proxy!r} is not an IP address or network.") from None

# The Content-Security-Policy (core/csp.py). Scripts only from this site: no inline code, no eval
# (the charts use Vega's expression interpreter). The one hash is the auto-submit line of the LTI
# deep-linking answer, which pylti1p3 writes inline (tests/test_security_csp.py recomputes it).
# Inline styles stay allowed: vega-embed, its tooltips and Redoc add <style> elements. No
# form-action and no frame-ancestors: deep linking posts to the LMS, and framing is decided per
# session (lti.middleware, X-Frame-Options). Empty: no header.
STUMPER_CONTENT_SECURITY_POLICY = env.str("STUMPER_CONTENT_SECURITY_POLICY", default="; ".join([
    "default-src 'self'",
    "script-src 'self' 'sha256-9bi3kzrLeJJ0fbB0RMuy2rBWG5pCvqsAnG1pWaf93F0='",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",  # Redoc builds its search index in a worker made from a blob
    "object-src 'none'",
    "base-uri 'self'",
]))
