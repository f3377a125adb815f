"""pylti1p3's view of our registrations (platforms from the database, the tool's active key), its launch with
the checks it lacks, and the sessions of its requests (lti/outbound.py)."""
import logging

import requests
from pylti1p3.contrib.django import DjangoMessageLaunch
from pylti1p3.deployment import Deployment
from pylti1p3.exception import LtiException
from pylti1p3.registration import Registration
from pylti1p3.tool_config.abstract import ToolConfAbstract

from lti.models import Platform
from lti.outbound import LmsSession
from lti.services import keys

logger = logging.getLogger(__name__)


class StumperToolConf(ToolConfAbstract):
    """One issuer may have several client ids (pylti1p3's "one-issuer-many-client-ids")."""

    def check_iss_has_one_client(self, iss: str) -> bool:
        return False

    def check_iss_has_many_clients(self, iss: str) -> bool:
        return True

    def find_registration_by_issuer(self, iss, *args, **kwargs):
        raise LtiException("A client id is needed to find a registration.")

    def find_deployment(self, iss, deployment_id):
        raise LtiException("A client id is needed to find a deployment.")

    def find_registration_by_params(self, iss: str, client_id: str, *args, **kwargs) -> Registration:
        return registration_of(_platform(iss, client_id))

    def find_deployment_by_params(self, iss: str, deployment_id: str, client_id: str, *args, **kwargs):
        if deployment_id not in _platform(iss, client_id).deployment_ids:
            return None
        return Deployment().set_deployment_id(deployment_id)


def _platform(iss: str, client_id: str | None) -> Platform:
    platform = Platform.objects.filter(issuer=iss, client_id=client_id).first() if client_id else None
    if platform is None:
        raise LtiException(f"No LMS is registered with issuer {iss!r} and client id {client_id!r}.")
    return platform


def registration_of(platform: Platform) -> Registration:
    key = keys.tool_key_active()
    return (Registration()
            .set_issuer(platform.issuer)
            .set_client_id(platform.client_id)
            .set_auth_login_url(platform.auth_login_url)
            .set_auth_token_url(platform.auth_token_url)
            .set_auth_audience(platform.auth_audience or None)
            .set_key_set_url(platform.key_set_url)
            .set_tool_private_key(keys.private_pem(key))
            .set_tool_public_key(key.public_pem))


def service_session(platform: Platform) -> LmsSession:
    """The session of a platform's services (token, NRPS, AGS): only its hosts, every request checked."""
    return LmsSession(hosts=platform.service_hosts())


class KeySetUnavailable(LtiException):
    """The platform's key set could not be fetched or is not a key set; the reason is in the log only."""


KEY_SET_UNAVAILABLE = "the LMS's key set could not be fetched"


class StumperMessageLaunch(DjangoMessageLaunch):
    """pylti1p3's launch, with what it lacks:

    - the key set comes through ``LmsSession`` and a failure says only ``KEY_SET_UNAVAILABLE`` (pylti1p3
      would put the answer's body, or the connection error, in the message the browser sees);
    - the id_token's audiences (OpenID Connect Core §3.1.3.7, which IMS Security Framework §5.1.3 follows):
      pylti1p3 turns PyJWT's audience check off and takes ``aud[0]`` as the client id, so a token also meant
      for other clients, or issued to another one (``azp``), would pass.
    """

    def __init__(self, request, tool_config, session_service=None, cookie_service=None, launch_data_storage=None,
                 requests_session=None):
        super().__init__(request, tool_config, session_service=session_service, cookie_service=cookie_service,
                         launch_data_storage=launch_data_storage, requests_session=requests_session or LmsSession())

    def fetch_public_key(self, key_set_url: str) -> dict:
        try:
            response = self._requests_session.get(key_set_url)
            response.raise_for_status()
            key_set = response.json()
            if not isinstance(key_set, dict) or not isinstance(key_set.get("keys"), list):
                raise ValueError("the answer is JSON but not a key set (no list of keys)")
        except (requests.RequestException, ValueError) as exc:
            logger.warning("LTI: the key set %s could not be fetched: %s: %s", key_set_url, type(exc).__name__,
                           str(exc)[:300])
            raise KeySetUnavailable(KEY_SET_UNAVAILABLE) from exc
        return key_set

    def validate_jwt_signature(self) -> "StumperMessageLaunch":
        super().validate_jwt_signature()  # the claims below are the platform's own
        body = self._get_jwt_body()
        client_id = self.get_client_id()
        audiences = body.get("aud") if isinstance(body.get("aud"), list) else [body.get("aud")]
        if any(audience != client_id for audience in audiences):
            raise LtiException("The token is also meant for other clients (aud): Stumper trusts only its own client id.")
        if "azp" in body and body["azp"] != client_id:
            raise LtiException("The token was issued to another client (azp is not Stumper's client id).")
        return self
