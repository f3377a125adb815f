"""The log of a participant's data being deleted on request (``services.participants``)."""
from django.conf import settings
from django.db import models


class ParticipantDeletion(models.Model):
    """One honoured deletion request: who asked, when, and how many rows went.

    It deliberately holds no trace of the participant (no user id, name or text): the log proves
    the request was carried out without keeping the data it removed.
    """

    project = models.ForeignKey("annotation.Project", on_delete=models.CASCADE, related_name="participant_deletions")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    counts = models.JSONField(default=dict, help_text="Rows deleted, by kind")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Deletion in {self.project_id} at {self.created_at:%Y-%m-%d %H:%M}"
