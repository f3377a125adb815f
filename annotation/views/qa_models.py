"""The project page's model-in-the-loop actions: train a QA model on the project's answered questions
(a background job whose progress the page follows over its socket) or use a registered checkpoint by name, folder or hub id."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from annotation.inputs import first_message
from annotation.selectors.projects import project_for_owner
from annotation.selectors.qa_models import qa_training_job_for_owner, qa_training_job_payload
from annotation.services.qa_models import project_checkpoint_use, qa_training_job_start
from core.exceptions import NotFoundError


@login_required
@require_POST
def project_model_train(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_owner(user=request.user, project_id=project_id)
    try:
        job = qa_training_job_start(project=project, name=request.POST.get("name", "").strip(), user=request.user)
    except ValidationError as error:
        messages.error(request, _("Training not started. %(reason)s") % {"reason": first_message(error)})
    else:
        messages.success(request, _("Training %(name)s on this project's answered questions; "
                                    "the progress shows below.") % {"name": job.name})
    return redirect("annotation:project_dashboard", project_id=project.pk)


@login_required
@require_POST
def project_model_checkpoint(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_owner(user=request.user, project_id=project_id)
    try:
        version = project_checkpoint_use(project=project, source=request.POST.get("source", ""),
                                         name=request.POST.get("name", ""))
    except ValidationError as error:
        messages.error(request, _("The model in the loop did not change. %(reason)s") % {"reason": first_message(error)})
    else:
        messages.success(request, _("%(name)s is now the model in the loop: it answers while workers write.") % {"name": version.name})
    return redirect("annotation:project_dashboard", project_id=project.pk)


@login_required
@require_safe
def qa_training_job_status(request: HttpRequest, project_id: int, job_id: int) -> JsonResponse:
    """The job as JSON, for scripts; the project page follows it over its socket (pushed, not polled)."""
    try:
        job = qa_training_job_for_owner(user=request.user, project_id=project_id, job_id=job_id)
    except NotFoundError as error:
        return JsonResponse({"detail": str(error.message)}, status=404)
    return JsonResponse(qa_training_job_payload(job))
