"""Deep Linking 2.0 response: the chosen round or annotation project as an LTI resource link with a graded line item."""
from pylti1p3.contrib.django import DjangoMessageLaunch
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.lineitem import LineItem

from annotation.models import Project
from collector.models import Round
from collector.presentation.grades import lineitem_label
from lti import claims


def _item(target: Round | Project) -> tuple[str, str, dict[str, str]]:
    """(title, line item resourceId, custom parameters) of what the instructor picked."""
    if isinstance(target, Project):
        return target.name, f"stumper-project-{target.pk}", {claims.CUSTOM_PROJECT: str(target.pk)}
    return lineitem_label(target), f"stumper-round-{target.pk}", {claims.CUSTOM_ROUND: str(target.pk)}


def deep_link_response_form(*, launch: DjangoMessageLaunch, target: Round | Project, score_maximum: float,
                            launch_url: str) -> str:
    """The auto-submitting HTML form that posts our signed LtiDeepLinkingResponse back to the LMS."""
    if score_maximum <= 0:
        raise ValueError("The maximum score must be positive.")
    title, resource_id, custom = _item(target)
    lineitem = (LineItem().set_score_maximum(score_maximum).set_label(title)
                .set_resource_id(resource_id).set_tag("stumper"))
    resource = (DeepLinkResource().set_title(title).set_url(launch_url)
                .set_custom_params(custom).set_lineitem(lineitem))
    return launch.get_deep_link().output_response_form([resource])
