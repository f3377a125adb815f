"""The annotation app's JSON API under ``/api/annotation/`` (names ``annotation_api:*``): ``apis/<concern>.py``
per line, grouped by the object each URL starts from: a project, a session."""
from django.urls import include, path

from annotation.apis import authoring, imports, projects, reviews, second_pass, session_time, stats, worker_home

# projects/<id>/
project_patterns = [
    path("settings/", projects.ProjectSettingsApi.as_view(), name="project_settings"),
    path("settings/update/", projects.ProjectSettingsUpdateApi.as_view(), name="project_settings_update"),
    path("import/articles/", imports.ArticleImportApi.as_view(), name="project_import_articles"),
    path("import/squad/", imports.SquadImportApi.as_view(), name="project_import_squad"),
    path("paragraphs/", reviews.ParagraphListApi.as_view(), name="project_paragraphs"),
    path("flags/", reviews.FlagListApi.as_view(), name="project_flags"),
    path("next/", worker_home.TaskNextApi.as_view(), name="task_next"),
    path("stats/", stats.ProjectStatsApi.as_view(), name="project_stats"),
]
# sessions/<id>/: a worker's paragraph, authoring (authoring.py) or answering again (second_pass.py)
session_patterns = [
    path("", authoring.SessionDetailApi.as_view(), name="session_detail"),
    path("heartbeat/", session_time.SessionHeartbeatApi.as_view(), name="session_heartbeat"),
    path("draft/", authoring.SessionDraftSaveApi.as_view(), name="session_draft"),
    path("questions/", authoring.QuestionAddApi.as_view(), name="question_add"),
    path("submit/", authoring.SessionSubmitApi.as_view(), name="session_submit"),
    path("discard/", authoring.SessionDiscardApi.as_view(), name="session_discard"),
    path("answers/", second_pass.SecondPassAnswerApi.as_view(), name="second_pass_answer"),
    path("flags/", second_pass.SecondPassFlagApi.as_view(), name="second_pass_flag"),
]

app_name = "annotation_api"
# project_export (projects/<id>/export/, the SQuAD export) is evaluation's: evaluation/export_urls.py,
# added here by config/urls.py.
urlpatterns = [
    path("tasks/", worker_home.TaskListApi.as_view(), name="task_list"),
    path("projects/", projects.ProjectListApi.as_view(), name="project_list"),
    path("projects/create/", projects.ProjectCreateApi.as_view(), name="project_create"),
    path("projects/<int:project_id>/", include(project_patterns)),
    path("paragraphs/<int:paragraph_id>/restore/", reviews.ParagraphRestoreApi.as_view(), name="paragraph_restore"),
    path("flags/<int:flag_id>/resolve/", reviews.FlagResolveApi.as_view(), name="flag_resolve"),
    path("sessions/<int:session_id>/", include(session_patterns)),
    path("questions/<int:question_id>/update/", authoring.QuestionUpdateApi.as_view(), name="question_update"),
    path("questions/<int:question_id>/delete/", authoring.QuestionDeleteApi.as_view(), name="question_delete"),
]
