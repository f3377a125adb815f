"""Settings of the API, read by base.py: Django REST framework and the OpenAPI schema (drf-spectacular)."""

__all__ = ["REST_FRAMEWORK", "SPECTACULAR_SETTINGS"]

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "config.schema.StyleguideAutoSchema",
    # Token first: an anonymous request then gets 401 with "WWW-Authenticate: Token" (DRF takes
    # the challenge from the first class; the session class has none, which would make it 403).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON through the one bounded reader (depth, numbers): a bad body is a 400, never a 500.
    "DEFAULT_PARSER_CLASSES": ["core.parsers.BoundedJSONParser", "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Stumper API",
    "DESCRIPTION": (
        "Collect adversarial questions, annotate spans and evaluate bias. Authenticate with "
        "`Authorization: Token <key>` (an instructor creates keys in the admin) or the session cookie."
    ),
    "VERSION": "1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/",
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # System fonts: the Redoc page loads nothing from outside (templates/drf_spectacular/redoc.html).
    "REDOC_UI_SETTINGS": {"theme": {"typography": {"fontFamily": "system-ui, sans-serif",
                                                   "headings": {"fontFamily": "system-ui, sans-serif"}}}},
    # Choice sets that share a field name ("kind", "status") get enums named after their models.
    "ENUM_NAME_OVERRIDES": {
        "ScoringRunKindEnum": "collector.models.ScoringRun.Kind",
        "AnnotationSessionKindEnum": "annotation.models.AnnotationSession.Kind",
        "QuestionStatusEnum": "collector.models.QuestionStatus",
        # A scoring run's states (with cancelled); training jobs' four are TrainingJobStatusEnum.
        "JobStatusEnum": "collector.models.ScoringRun.Status",
        "ParagraphStatusEnum": "annotation.models.Paragraph.Status",
        "QuestionFlagStatusEnum": "annotation.models.QuestionFlag.Status",
        # A panel member is shown to authors or held out; a course member's "role" is another set.
        "PanelRoleEnum": "collector.models.panel.PanelRole",
        "CourseMembershipRoleEnum": ["instructor", "student"],
    },
}
