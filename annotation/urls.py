from django.urls import path

from annotation import invite_views, model_views, views

app_name = "annotation"
# project_export (projects/<id>/export/, the SQuAD download) is evaluation's: evaluation/export_urls.py,
# added here by config/urls.py.
urlpatterns = [
    path("", views.task_list, name="task_list"),
    path("i18n/<str:language>.js", views.javascript_catalog, name="javascript_catalog"),
    path("projects/<int:project_id>/start/<str:kind>/", views.task_start, name="task_start"),
    path("sessions/<int:session_id>/", views.session_page, name="session"),
    path("projects/", views.project_list, name="project_list"),
    path("projects/<int:project_id>/", views.project_dashboard, name="project_dashboard"),
    path("projects/<int:project_id>/model/train/", model_views.project_model_train, name="project_model_train"),
    path("projects/<int:project_id>/model/checkpoint/", model_views.project_model_checkpoint,
         name="project_model_checkpoint"),
    path("projects/<int:project_id>/model/jobs/<int:job_id>/", model_views.qa_training_job_status,
         name="qa_training_job_status"),
    path("projects/<int:project_id>/settings/", views.project_settings, name="project_settings"),
    path("projects/<int:project_id>/import/", views.project_import, name="project_import"),
    path("projects/<int:project_id>/paragraphs/", views.project_paragraphs, name="project_paragraphs"),
    path("projects/<int:project_id>/flags/", views.project_flags, name="project_flags"),
    path("projects/<int:project_id>/invites/", invite_views.project_invites, name="project_invites"),
    path("projects/<int:project_id>/invites/access/", invite_views.project_access, name="project_access"),
    path("invites/<int:invite_id>/revoke/", invite_views.invite_revoke, name="invite_revoke"),
    path("join/<str:token>/", invite_views.invite_join, name="invite_join"),
    path("paragraphs/<int:paragraph_id>/restore/", views.paragraph_restore, name="paragraph_restore"),
    path("flags/<int:flag_id>/resolve/", views.flag_resolve, name="flag_resolve"),
]
