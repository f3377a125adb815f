"""LTI 1.3 registrations, the tool's keys, and what launches link: identities, contexts, resource links,
the NRPS roster and the per-student state of the AGS grade passback."""
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from annotation.models import Project
from collector.models import Round
from courses.models import Course
from lti.outbound import url_problem


class Platform(models.Model):
    """One LMS registration (IMS LTI 1.3 Core §3: issuer + client id, with its deployments)."""

    name = models.CharField(max_length=200)
    issuer = models.URLField(max_length=500)
    client_id = models.CharField(max_length=255)
    deployment_ids = models.JSONField(default=list, help_text="Deployment ids this registration accepts")
    auth_login_url = models.URLField("Platform OIDC auth URL", max_length=500)
    auth_token_url = models.URLField("Platform OAuth2 token URL", max_length=500)
    auth_audience = models.CharField(max_length=500, blank=True, help_text="Token audience if not the token URL")
    key_set_url = models.URLField("Platform key set (JWKS) URL", max_length=500)
    frame_origins = models.JSONField(default=list, blank=True, help_text=(
        "Origins whose pages may show Stumper in an iframe, e.g. https://school.instructure.com "
        "(the issuer's and the auth URL's origins are always allowed)"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["issuer", "client_id"], name="lti_unique_platform")]
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.issuer}, {self.client_id})"

    def allowed_frame_origins(self) -> list[str]:
        origins = {_origin(self.issuer), _origin(self.auth_login_url), *map(_origin, self.frame_origins)}
        return sorted(origin for origin in origins if origin)

    def service_hosts(self) -> frozenset[str]:
        """The hosts the tool may call for this LMS: those of its issuer, auth, token and key set URLs and
        its web origins (Canvas cloud serves a course's roster and line items from the school's origin)."""
        urls = [self.issuer, self.auth_login_url, self.auth_token_url, self.key_set_url, *self.frame_origins]
        return frozenset(host for host in (urlsplit(url or "").hostname for url in urls) if host)

    def clean(self) -> None:
        # The tool fetches the token and key set URLs itself (lti/outbound.py); the others only browsers use.
        errors = {name: problem for name, fetched in _URL_FIELDS
                  if (problem := url_problem(getattr(self, name), fetched=fetched))}
        if errors:
            raise ValidationError(errors)


_URL_FIELDS = (("issuer", False), ("auth_login_url", False), ("auth_token_url", True), ("key_set_url", True))


def _origin(url: str) -> str:
    parts = urlsplit(url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else ""


class ToolKey(models.Model):
    """An RSA key pair of the tool. The private key is stored encrypted (Fernet, key derived from
    SECRET_KEY); a retired key stays published in the JWKS until the tokens it signed have expired."""

    kid = models.CharField(max_length=100, unique=True)
    public_pem = models.TextField()
    private_pem_encrypted = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    retired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]


class LtiIdentity(models.Model):
    """A Stumper account linked to an LMS user by issuer + subject (never by e-mail), with the ids the
    latest launch gave, which grade files use to tell the LMS who a row is."""

    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="identities")
    subject = models.CharField(max_length=255)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lti_identities")
    person_sourcedid = models.CharField("LIS person sourcedid", max_length=255, blank=True,
                                        help_text="The SIS id of the user (Canvas: SIS User ID), from the launch")
    email = models.CharField(max_length=254, blank=True, help_text="The e-mail address the LMS sent at the last launch")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["platform", "subject"], name="lti_unique_identity")]


class ContextLink(models.Model):
    """An LMS course (LTI context) and the Stumper course it maps to (null until an instructor links it)."""

    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="contexts")
    context_id = models.CharField(max_length=255)
    title = models.CharField(max_length=255, blank=True)
    course = models.ForeignKey(Course, null=True, blank=True, on_delete=models.SET_NULL, related_name="lti_contexts")
    memberships_url = models.URLField(max_length=500, blank=True)
    roster_synced_at = models.DateTimeField(null=True, blank=True)
    roster_error = models.TextField(blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["platform", "context_id"], name="lti_unique_context")]


class ResourceLink(models.Model):
    """A placement of the tool in an LMS course (an assignment), pointing at a round or an annotation
    project, with its AGS line item."""

    context = models.ForeignKey(ContextLink, on_delete=models.CASCADE, related_name="resource_links")
    resource_link_id = models.CharField(max_length=255)
    title = models.CharField(max_length=255, blank=True)
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="lti_links")
    project = models.ForeignKey(Project, null=True, blank=True, on_delete=models.SET_NULL, related_name="lti_links")
    lineitem_url = models.URLField(max_length=500, blank=True)
    lineitems_url = models.URLField(max_length=500, blank=True)
    ags_scopes = models.JSONField(default=list, blank=True)
    score_maximum = models.FloatField(null=True, blank=True, help_text="The line item's, read from the LMS")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["context", "resource_link_id"], name="lti_unique_resource_link"),
            models.CheckConstraint(condition=models.Q(round__isnull=True) | models.Q(project__isnull=True),
                                   name="lti_resource_link_round_or_project"),
        ]


class RosterMember(models.Model):
    """One member of an LMS course as the platform's NRPS service listed it at the last sync."""

    context = models.ForeignKey(ContextLink, on_delete=models.CASCADE, related_name="members")
    subject = models.CharField(max_length=255)
    name = models.CharField(max_length=255, blank=True)
    email = models.CharField(max_length=255, blank=True)
    roles = models.JSONField(default=list)
    status = models.CharField(max_length=32, default="Active")
    synced_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["context", "subject"], name="lti_unique_member")]
        ordering = ["name", "subject"]


class GradeSync(models.Model):
    """The last grade passback of one student's score to one line item."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"

    resource_link = models.ForeignKey(ResourceLink, on_delete=models.CASCADE, related_name="grade_syncs")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lti_grade_syncs")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    score_given = models.FloatField(null=True, blank=True)
    score_maximum = models.FloatField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["resource_link", "user"], name="lti_unique_grade_sync")]
