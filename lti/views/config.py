"""The JSON an LMS admin pastes: Canvas's developer key configuration (Canvas "LTI 1.3 key", "Paste JSON")."""
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from lti import claims


def tool_urls(request: HttpRequest) -> dict[str, str]:
    return {"login": request.build_absolute_uri(reverse("lti:login")),
            "launch": request.build_absolute_uri(reverse("lti:launch")),
            "jwks": request.build_absolute_uri(reverse("lti:jwks")),
            "canvas_config": request.build_absolute_uri(reverse("lti:canvas_config"))}


@require_safe
def canvas_config(request: HttpRequest) -> JsonResponse:
    urls = tool_urls(request)
    placements = [
        {"placement": "assignment_selection", "message_type": "LtiDeepLinkingRequest", "target_link_uri": urls["launch"]},
        {"placement": "link_selection", "message_type": "LtiDeepLinkingRequest", "target_link_uri": urls["launch"]},
        {"placement": "course_navigation", "message_type": "LtiResourceLinkRequest", "target_link_uri": urls["launch"],
         "default": "disabled"},
    ]
    return JsonResponse({
        "title": "Stumper",
        "description": "Write questions that fool a language model; rounds become graded assignments.",
        "oidc_initiation_url": urls["login"],
        "target_link_uri": urls["launch"],
        "public_jwk_url": urls["jwks"],
        "scopes": [claims.AGS_SCOPE_LINEITEM, "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
                   claims.AGS_SCOPE_SCORE, claims.NRPS_SCOPE],
        "extensions": [{"platform": "canvas.instructure.com", "privacy_level": "public", "domain": request.get_host(),
                        "settings": {"text": "Stumper", "placements": placements}}],
        "custom_fields": {},
    })
