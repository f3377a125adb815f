"""pylti1p3's view of our registrations: platforms from the database, the tool's active key."""
import requests
from django.conf import settings
from pylti1p3.deployment import Deployment
from pylti1p3.exception import LtiException
from pylti1p3.registration import Registration
from pylti1p3.tool_config.abstract import ToolConfAbstract

from lti.models import Platform
from lti.services import keys


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


class TimeoutSession(requests.Session):
    """requests has no session-wide timeout; a platform that never answers must not hold a worker."""

    def request(self, method, url, **kwargs):
        kwargs.setdefault("timeout", settings.STUMPER_LTI_HTTP_TIMEOUT)
        return super().request(method, url, **kwargs)
