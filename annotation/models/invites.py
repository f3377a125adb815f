"""Invite links of annotation projects and the crowdworkers who joined by one.

Re-exported by ``annotation/models/__init__.py``. A crowdworker opens the link, signs up or signs
in, and joins: like a student's course join code, but a link the owner can revoke or let expire.
"""
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone


def new_invite_token() -> str:
    return secrets.token_urlsafe(18)  # 24 URL-safe characters, 144 random bits


class ProjectInvite(models.Model):
    """A link (``/annotation/join/<token>/``) that lets whoever opens it join ``project``."""

    class State(models.TextChoices):
        ACTIVE = "active", "Active"
        EXPIRED = "expired", "Expired"
        REVOKED = "revoked", "Revoked"

    project = models.ForeignKey("annotation.Project", on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True, help_text="Blank: never expires")
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Invite to {self.project_id} ({self.state})"

    @property
    def state(self) -> str:
        if self.revoked_at is not None:
            return self.State.REVOKED
        if self.expires_at is not None and self.expires_at <= timezone.now():
            return self.State.EXPIRED
        return self.State.ACTIVE


class ProjectMember(models.Model):
    """A crowdworker (or instructor) who joined ``project`` by an invite link."""

    project = models.ForeignKey("annotation.Project", on_delete=models.CASCADE, related_name="members")
    worker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="project_memberships")
    invite = models.ForeignKey(ProjectInvite, null=True, blank=True, on_delete=models.SET_NULL, related_name="members")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["project", "worker"], name="unique_project_member")]

    def __str__(self) -> str:
        return f"{self.worker_id} in project {self.project_id}"
