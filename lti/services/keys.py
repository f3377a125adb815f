"""The tool's RSA keys: generated and rotated here, private halves encrypted at rest.

The private key is encrypted with Fernet under a key derived (HKDF-SHA256) from ``SECRET_KEY``, so a
database dump alone does not reveal it; changing ``SECRET_KEY`` makes the stored keys unusable and
``manage.py lti_rotate_keys`` must be run again (platforms then fetch the new public key from /lti/jwks/).
"""
import base64
import datetime as dt
import logging

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from pylti1p3.registration import Registration

from lti.models import ToolKey

logger = logging.getLogger(__name__)


class ToolKeyUnavailable(Exception):
    """The stored private key cannot be decrypted (SECRET_KEY changed): rotate the keys."""


def _fernet() -> Fernet:
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"stumper-lti-tool-keys", info=b"fernet").derive(
        settings.SECRET_KEY.encode())
    return Fernet(base64.urlsafe_b64encode(derived))


def _new_key() -> ToolKey:
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private_pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                        serialization.NoEncryption())
    public_pem = private.public_key().public_bytes(serialization.Encoding.PEM,
                                                   serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    kid = Registration.get_jwk(public_pem)["kid"]  # the RFC 7638 thumbprint pylti1p3 puts in its JWT headers
    key = ToolKey(kid=kid, public_pem=public_pem, private_pem_encrypted=_fernet().encrypt(private_pem).decode())
    key.full_clean()
    key.save()
    return key


def private_pem(key: ToolKey) -> str:
    try:
        return _fernet().decrypt(key.private_pem_encrypted.encode()).decode()
    except InvalidToken as exc:
        raise ToolKeyUnavailable(
            "The LTI tool key cannot be decrypted (SECRET_KEY changed?): run `manage.py lti_rotate_keys`.") from exc


def _overlap() -> dt.timedelta:
    return dt.timedelta(seconds=settings.STUMPER_LTI_KEY_OVERLAP_SECONDS)


@transaction.atomic
def tool_key_rotate() -> ToolKey:
    """Make a new signing key; the previous one is retired but still published for the overlap
    period (STUMPER_LTI_KEY_OVERLAP_SECONDS), and keys retired longer ago are deleted."""
    now = timezone.now()
    ToolKey.objects.select_for_update().filter(retired_at__isnull=True).update(retired_at=now)
    deleted, _ = ToolKey.objects.filter(retired_at__lt=now - _overlap()).delete()
    key = _new_key()
    logger.info("LTI tool key rotated: new kid %s, %d expired key(s) deleted", key.kid, deleted)
    return key


@transaction.atomic
def tool_key_active() -> ToolKey:
    """The key that signs the tool's messages (created on first use)."""
    key = ToolKey.objects.select_for_update().filter(retired_at__isnull=True).first()
    return key if key is not None else _new_key()


def tool_jwks() -> dict:
    """The public key set published at /lti/jwks/: the active key and keys retired within the overlap."""
    tool_key_active()
    keys = ToolKey.objects.filter(retired_at__isnull=True) | ToolKey.objects.filter(
        retired_at__gte=timezone.now() - _overlap())
    return {"keys": [Registration.get_jwk(key.public_pem) for key in keys.order_by("-created_at", "-id")]}
