"""Deep Linking 2.0 response: the chosen round as an LTI resource link with a graded line item."""
from pylti1p3.contrib.django import DjangoMessageLaunch
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.lineitem import LineItem

from collector.grades import assignment_name
from collector.models import Round
from lti import claims


def deep_link_response_form(*, launch: DjangoMessageLaunch, round_: Round, score_maximum: float, launch_url: str) -> str:
    """The auto-submitting HTML form that posts our signed LtiDeepLinkingResponse back to the LMS."""
    if score_maximum <= 0:
        raise ValueError("The maximum score must be positive.")
    title = round_.title or assignment_name(round_)
    lineitem = (LineItem().set_score_maximum(score_maximum).set_label(title)
                .set_resource_id(f"stumper-round-{round_.pk}").set_tag("stumper"))
    resource = (DeepLinkResource().set_title(title).set_url(launch_url)
                .set_custom_params({claims.CUSTOM_ROUND: str(round_.pk)}).set_lineitem(lineitem))
    return launch.get_deep_link().output_response_form([resource])
