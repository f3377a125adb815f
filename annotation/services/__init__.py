"""Writes of the annotation app (services write, selectors read).

Split by concern so no file grows past ~400 lines; import from here:
``from annotation import services; services.question_add(...)``.
"""
from annotation.services.authoring import (
    lock_session,
    new_qid,
    question_add,
    question_delete,
    question_update,
    session_discard,
    session_draft_save,
    session_start_next,
    session_start_on,
    session_submit,
)
from annotation.services.imports import ArticleImportResult, SquadImportResult, articles_import, squad_import
from annotation.services.invites import (
    invite_accept,
    invite_create,
    invite_refusal,
    invite_revoke,
    invite_signup,
    project_invite_only_set,
    project_member_add,
)
from annotation.services.predictions import fool_verdict, prediction_schedule, question_prediction_compute
from annotation.services.projects import (
    paragraph_refresh_status,
    paragraph_restore,
    project_create,
    project_update,
)
from annotation.services.second_pass import (
    flag_resolve,
    second_pass_answer_save,
    second_pass_flag_save,
    second_pass_submit,
)
from annotation.services.session_time import HEARTBEAT_SECONDS, session_heartbeat

__all__ = [
    "ArticleImportResult", "SquadImportResult", "articles_import", "squad_import", "flag_resolve", "fool_verdict", "lock_session",
    "invite_accept", "invite_create", "invite_refusal", "invite_revoke", "invite_signup", "project_invite_only_set",
    "project_member_add",
    "new_qid", "paragraph_refresh_status", "paragraph_restore", "prediction_schedule", "project_create",
    "project_update", "question_add", "question_delete", "question_prediction_compute", "question_update",
    "second_pass_answer_save", "second_pass_flag_save", "second_pass_submit", "session_discard", "session_draft_save",
    "session_start_next", "session_start_on", "session_submit", "HEARTBEAT_SECONDS", "session_heartbeat",
]
