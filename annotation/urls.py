"""Pages of the annotation app (names ``annotation:*``): ``views/<concern>.py`` per line."""
from django.urls import path

from annotation.views import (
    authoring,
    imports,
    invites,
    participants,
    projects,
    qa_models,
    reviews,
    worker_home,
    worker_language,
)

app_name = "annotation"
# The SQuAD download at projects/<id>/export/ is evaluation's (evaluation:project_export,
# evaluation/export_urls.py).
urlpatterns = [
    path("", worker_home.task_list, name="task_list"),
    path("i18n/<str:language>.js", worker_language.javascript_catalog, name="javascript_catalog"),
    path("projects/<int:project_id>/start/<str:kind>/", worker_home.task_start, name="task_start"),
    path("sessions/<int:session_id>/", authoring.session_page, name="session"),
    path("projects/", projects.project_list, name="project_list"),
    path("projects/<int:project_id>/", projects.project_dashboard, name="project_dashboard"),
    path("projects/<int:project_id>/model/train/", qa_models.project_model_train, name="project_model_train"),
    path("projects/<int:project_id>/model/checkpoint/", qa_models.project_model_checkpoint,
         name="project_model_checkpoint"),
    path("projects/<int:project_id>/model/jobs/<int:job_id>/", qa_models.qa_training_job_status,
         name="qa_training_job_status"),
    path("projects/<int:project_id>/settings/", projects.project_settings, name="project_settings"),
    path("projects/<int:project_id>/import/", imports.project_import, name="project_import"),
    path("projects/<int:project_id>/paragraphs/", reviews.project_paragraphs, name="project_paragraphs"),
    path("projects/<int:project_id>/flags/", reviews.project_flags, name="project_flags"),
    path("projects/<int:project_id>/invites/", invites.project_invites, name="project_invites"),
    path("projects/<int:project_id>/invites/access/", invites.project_access, name="project_access"),
    path("projects/<int:project_id>/participants/", participants.project_participants, name="project_participants"),
    path("projects/<int:project_id>/participants/<int:participant_id>/export/", participants.participant_data_export,
         name="participant_data_export"),
    path("projects/<int:project_id>/participants/<int:participant_id>/delete/", participants.participant_data_delete,
         name="participant_data_delete"),
    path("invites/<int:invite_id>/revoke/", invites.invite_revoke, name="invite_revoke"),
    path("join/<str:token>/", invites.invite_join, name="invite_join"),
    path("paragraphs/<int:paragraph_id>/restore/", reviews.paragraph_restore, name="paragraph_restore"),
    path("flags/<int:flag_id>/resolve/", reviews.flag_resolve, name="flag_resolve"),
]
