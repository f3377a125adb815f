"""The worker APIs answer in the language of the worker's page.

That is the worker's choice (the ``set_language`` cookie), else the language of the project the
session, question or project of the URL belongs to (``annotation.i18n``): the messages a
crowdworker's page shows from a refused or invalid request (``annotation.inputs``, the
services', DRF's own) then read as the page does.
"""
from rest_framework.request import Request

from annotation.i18n import activate_project_language
from annotation.selectors.projects import project_languages

URL_IDS = ("session_id", "question_id", "project_id")


class WorkerLanguageMixin:
    """Put first among an ``APIView``'s bases: activates the language before anything is checked."""

    def initial(self, request: Request, *args, **kwargs) -> None:
        ids = {name: kwargs[name] for name in URL_IDS if name in kwargs}
        activate_project_language(request, project_languages(**ids))
        super().initial(request, *args, **kwargs)
