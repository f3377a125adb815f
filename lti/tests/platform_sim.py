"""A small LTI 1.3 platform (an "LMS") for the tests: a real HTTP server on 127.0.0.1.

It has its own RSA key and key set URL, answers OIDC login initiation with signed launch JWTs
(resource link and deep linking), issues OAuth2 access tokens for the tool's signed client
assertion, serves NRPS memberships and records AGS line items and scores.

The message formats are written out from the specifications:
- IMS LTI 1.3 Core (https://www.imsglobal.org/spec/lti/v1p3/): §5.1.2 OIDC login initiation
  parameters, §5.3 required claims, §5.4 optional claims (context, custom), Appendix A.2 roles;
- IMS Security Framework 1.0 §4.1 (client credentials grant with a JWT client assertion);
- LTI Deep Linking 2.0 (https://www.imsglobal.org/spec/lti-dl/v2p0/) §4.4 deep_linking_settings, §4.5
  the LtiDeepLinkingResponse and its content_items;
- Names and Role Provisioning Services 2.0 (https://www.imsglobal.org/spec/lti-nrps/v2p0/) §3.6 the
  membership container;
- Assignment and Grade Services 2.0 (https://www.imsglobal.org/spec/lti-ags/v2p0/) §3.2 line items,
  §3.4 the Score publish service.
"""
import json
import re
import secrets
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlparse

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwcrypto.jwk import JWK

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
ROLE_INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
ROLE_TA = "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"
ROLE_LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
ROLE_INSTITUTION_INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor"
AGS_SCOPES = [  # AGS 2.0 §3.1
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
    "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
]
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
INTERNAL_BODY = "INTERNAL-ONLY: db_password=hunter2"


def rsa_key() -> tuple[str, dict]:
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public_jwk = json.loads(JWK.from_pem(pem.encode()).export_public())
    public_jwk.update(alg="RS256", use="sig")
    return pem, public_jwk


class PlatformSimulator:
    """Start with ``with PlatformSimulator() as lms:``; ``lms.url`` is its base URL (= its issuer)."""

    client_id = "stumper-tool-client"
    deployment_id = "deployment-1"
    context_id = "course-101"

    def __init__(self, host: str = "127.0.0.1"):
        self.private_pem, self.public_jwk = rsa_key()
        self.kid = self.public_jwk["kid"]
        self.messages: dict[str, dict] = {}        # lti_message_hint -> {"claims": ..., "sign_with": ..., "header": ...}
        self.tool_jwks: dict = {"keys": []}      # set by the test from the tool's /lti/jwks/
        self.tokens: dict[str, list[str]] = {}   # access token -> scopes
        self.members: list[dict] = []            # NRPS 2.0 members
        self.lineitems: dict[str, dict] = {}     # line item URL -> AGS 2.0 line item
        self.scores: list[dict] = []             # (lineitem URL, AGS 2.0 Score) as received
        self.score_attempts = 0
        self.ags_mode = "ok"                     # "ok", "fail" (HTTP 500) or "timeout"
        self.ags_delay = 2.0
        self.deep_link_responses: list[dict] = []
        self.internal_hits = 0                   # requests to /internal
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        # host "localhost" puts the LMS on the same site as a live server on localhost (browser test over HTTP)
        self.url = f"http://{host}:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> "PlatformSimulator":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    # --- registration values the tool needs ------------------------------------------------------
    def registration(self) -> dict:
        return {"name": "Simulated LMS", "issuer": self.url, "client_id": self.client_id,
                "deployment_ids": [self.deployment_id], "auth_login_url": f"{self.url}/auth",
                "auth_token_url": f"{self.url}/token", "key_set_url": f"{self.url}/jwks"}

    # --- messages ----------------------------------------------------------------------------------
    def resource_link_claims(self, *, sub: str, roles: list[str], resource_link_id: str = "link-1",
                             custom: dict | None = None, lineitem: str | None = None) -> dict:
        """LTI 1.3 Core §5.3 (required) and §5.4 (optional) claims, plus the NRPS and AGS service claims."""
        lineitem = lineitem or f"{self.url}/ags/{self.context_id}/lineitems/{resource_link_id}"
        self.lineitems.setdefault(lineitem, {"id": lineitem, "scoreMaximum": 10, "label": resource_link_id,
                                             "resourceLinkId": resource_link_id})
        return {
            LTI + "message_type": "LtiResourceLinkRequest",
            LTI + "version": "1.3.0",
            LTI + "deployment_id": self.deployment_id,
            LTI + "target_link_uri": "",  # filled in with the tool's launch URL
            LTI + "resource_link": {"id": resource_link_id, "title": "Stumper round"},
            LTI + "roles": roles,
            LTI + "context": {"id": self.context_id, "label": "CS101", "title": "Commonsense 101",
                              "type": ["http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering"]},
            LTI + "custom": custom or {},
            "sub": sub, "name": f"User {sub}", "given_name": "User", "family_name": sub,
            "email": f"{sub}@lms.example",
            "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": {
                "context_memberships_url": f"{self.url}/nrps/{self.context_id}/memberships",
                "service_versions": ["2.0"]},
            "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {
                "scope": AGS_SCOPES, "lineitems": f"{self.url}/ags/{self.context_id}/lineitems",
                "lineitem": lineitem},
        }

    def deep_linking_claims(self, *, sub: str, roles: list[str]) -> dict:
        """Deep Linking 2.0 §4.4: an LtiDeepLinkingRequest carries deep_linking_settings, no resource_link."""
        claims = self.resource_link_claims(sub=sub, roles=roles)
        del claims[LTI + "resource_link"], claims["https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"]
        claims[LTI + "message_type"] = "LtiDeepLinkingRequest"
        claims["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"] = {
            "deep_link_return_url": f"{self.url}/deep_link_return",
            "accept_types": ["ltiResourceLink"],
            "accept_presentation_document_targets": ["iframe", "window"],
            "accept_multiple": True, "auto_create": True, "data": "opaque-platform-data"}
        return claims

    def login_params(self, claims: dict, *, tool_launch_url: str, sign_with: str | None = None,
                     header: dict | None = None, **overrides) -> dict:
        """LTI 1.3 Core §5.1.2 (IMS Security §5.1.1.1): the third-party login initiation parameters."""
        hint = uuid.uuid4().hex
        claims = {**claims, LTI + "target_link_uri": tool_launch_url}
        self.messages[hint] = {"claims": claims, "overrides": overrides, "sign_with": sign_with, "header": header}
        return {"iss": self.url, "login_hint": claims["sub"], "target_link_uri": tool_launch_url,
                "client_id": self.client_id, "lti_deployment_id": self.deployment_id, "lti_message_hint": hint}

    def id_token(self, hint: str, *, nonce: str, client_id: str) -> str:
        message = self.messages[hint]
        now = int(time.time())
        body = {"iss": self.url, "aud": client_id, "azp": client_id, "iat": now, "exp": now + 300,
                "nonce": nonce, **message["claims"], **message["overrides"]}
        return jwt.encode(body, message["sign_with"] or self.private_pem, algorithm="RS256",
                          headers=message["header"] or {"kid": self.kid})

    # --- checks of the tool's own JWTs -------------------------------------------------------------
    def verify_tool_jwt(self, token: str, audience: str) -> dict:
        kid = jwt.get_unverified_header(token).get("kid")
        jwk = next((k for k in self.tool_jwks["keys"] if k["kid"] == kid), None)
        if jwk is None:
            raise ValueError(f"unknown tool key {kid}")
        return jwt.decode(token, jwt.PyJWK(jwk).key, algorithms=["RS256"], audience=audience)


def _handler(lms: PlatformSimulator):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def _send(self, status: int, body, content_type: str = "application/json") -> None:
            data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _form(self) -> dict:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode()
            if "json" in (self.headers.get("Content-Type") or ""):
                return json.loads(raw)
            return {k: v[0] for k, v in parse_qs(raw).items()}

        def _scopes(self) -> list[str]:
            token = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
            return lms.tokens.get(token, [])

        def do_GET(self) -> None:
            url = urlparse(self.path)
            if url.path.startswith("/course/"):  # a course page embedding the tool (LTI 1.3 Core §5.1.1: GET login)
                q = {k: v[0] for k, v in parse_qs(url.query).items()}
                hint = url.path.removeprefix("/course/")
                message = lms.messages[hint]["claims"]
                params = {"iss": lms.url, "login_hint": message["sub"], "client_id": lms.client_id,
                          "target_link_uri": message[LTI + "target_link_uri"], "lti_message_hint": hint,
                          "lti_deployment_id": lms.deployment_id}
                html = (f'<h1>Commonsense 101</h1><iframe name="tool" width="1000" height="700" '
                        f'src="{q["tool_login"]}?{urlencode(params)}"></iframe>'
                        f'<iframe name="plain" width="400" height="300" src="{q.get("plain", "about:blank")}"></iframe>')
                return self._send(200, html, "text/html")
            if url.path == "/jwks":
                return self._send(200, {"keys": [lms.public_jwk]})
            if url.path == "/internal":  # stands for an internal service next to the tool (not part of an LMS)
                lms.internal_hits += 1
                return self._send(200, INTERNAL_BODY, "text/plain")
            if url.path == "/auth":  # OIDC authentication request -> auto-posted id_token (IMS Security §5.1.1.2-3)
                q = {k: v[0] for k, v in parse_qs(url.query).items()}
                if q.get("client_id") != lms.client_id or q.get("lti_message_hint") not in lms.messages:
                    return self._send(400, {"error": "invalid_request"})
                token = lms.id_token(q["lti_message_hint"], nonce=q["nonce"], client_id=q["client_id"])
                html = (f'<form id="f" method="post" action="{q["redirect_uri"]}">'
                        f'<input type="hidden" name="id_token" value="{token}">'
                        f'<input type="hidden" name="state" value="{q["state"]}"></form>'
                        '<script>document.getElementById("f").submit()</script>')
                return self._send(200, html, "text/html")
            if lms.url + url.path in lms.lineitems:  # AGS 2.0 §3.2: GET a line item
                if not {AGS_SCOPES[0], "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly"} & set(self._scopes()):
                    return self._send(401, {"error": "invalid_token"})
                return self._send(200, lms.lineitems[lms.url + url.path], "application/vnd.ims.lis.v2.lineitem+json")
            if url.path.startswith("/nrps/"):
                if NRPS_SCOPE not in self._scopes():
                    return self._send(401, {"error": "invalid_token"})
                return self._send(200, {"id": lms.url + url.path,  # NRPS 2.0 §3.6 membership container
                                        "context": {"id": lms.context_id, "label": "CS101", "title": "Commonsense 101"},
                                        "members": lms.members},
                                  "application/vnd.ims.lti-nrps.v2.membershipcontainer+json")
            return self._send(404, {"error": "not found"})

        def do_POST(self) -> None:
            url = urlparse(self.path)
            form = self._form()
            if url.path == "/token":  # IMS Security §4.1: client_credentials with a JWT client assertion
                try:
                    lms.verify_tool_jwt(form["client_assertion"], audience=f"{lms.url}/token")
                except Exception as exc:  # any failure of the assertion: the platform answers invalid_client
                    return self._send(401, {"error": "invalid_client", "error_description": str(exc)})
                token = secrets.token_urlsafe(16)
                lms.tokens[token] = form.get("scope", "").split()
                return self._send(200, {"access_token": token, "token_type": "bearer", "expires_in": 3600,
                                        "scope": form.get("scope", "")})
            if url.path == "/deep_link_return":  # Deep Linking 2.0 §4.5
                body = lms.verify_tool_jwt(form["JWT"], audience=lms.url)
                lms.deep_link_responses.append(body)
                return self._send(200, "<p>content added</p>", "text/html")
            if re.fullmatch(r"/ags/[^/]+/lineitems/[^/]+/scores", url.path):
                lms.score_attempts += 1
                if "https://purl.imsglobal.org/spec/lti-ags/scope/score" not in self._scopes():
                    return self._send(401, {"error": "invalid_token"})
                if lms.ags_mode == "fail":
                    return self._send(500, {"error": "gradebook is down"})
                if lms.ags_mode == "timeout":
                    time.sleep(lms.ags_delay)
                    return self._send(504, {"error": "too late"})
                lineitem = lms.url + url.path.removesuffix("/scores")
                lms.scores.append({"lineitem": lineitem, "score": form,
                                   "content_type": self.headers.get("Content-Type")})
                return self._send(200, {})
            return self._send(404, {"error": "not found"})

    return Handler
