"""Claim names and role URIs the tool reads (plain Python, no Django).

Sources: IMS LTI 1.3 Core (https://www.imsglobal.org/spec/lti/v1p3/) §5 and Appendix A.2 (roles),
Deep Linking 2.0 (https://www.imsglobal.org/spec/lti-dl/v2p0/) §4.4, Names and Role Provisioning
Services 2.0 (https://www.imsglobal.org/spec/lti-nrps/v2p0/) §3.6, Assignment and Grade Services 2.0
(https://www.imsglobal.org/spec/lti-ags/v2p0/) §3.1 and §3.4.
"""
from collections.abc import Sequence

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
MESSAGE_TYPE = LTI + "message_type"
VERSION = LTI + "version"
DEPLOYMENT_ID = LTI + "deployment_id"
TARGET_LINK_URI = LTI + "target_link_uri"
RESOURCE_LINK = LTI + "resource_link"
ROLES = LTI + "roles"
CONTEXT = LTI + "context"
CUSTOM = LTI + "custom"
LIS = LTI + "lis"  # Core §5.4.5: the SIS ids of the user and course, e.g. ``person_sourcedid``
DEEP_LINKING_SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
AGS_ENDPOINT = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"

AGS_SCOPE_LINEITEM = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
AGS_SCOPE_SCORE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"

CUSTOM_ROUND = "stumper_round_id"  # our own custom parameters, set by deep linking
CUSTOM_PROJECT = "stumper_project_id"

# LTI 1.3 Core Appendix A.2.3: context (membership) roles. Simple names ("Instructor") are the
# deprecated short form the spec still allows for context roles. Institution roles
# (…/lis/v2/institution/person#Instructor) say nothing about this course and are ignored.
_MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership"
INSTRUCTOR_ROLES = frozenset({
    f"{_MEMBERSHIP}#Instructor", "Instructor",
    f"{_MEMBERSHIP}/Instructor#TeachingAssistant", f"{_MEMBERSHIP}#TeachingAssistant", "TeachingAssistant",
})
LEARNER_ROLES = frozenset({f"{_MEMBERSHIP}#Learner", "Learner", f"{_MEMBERSHIP}/Learner#Learner"})


def course_role(roles: Sequence[str]) -> str | None:
    """``"instructor"`` for Instructor/TeachingAssistant, ``"student"`` for Learner, else None.

    >>> course_role(["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"])
    'student'
    >>> course_role(["http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor"]) is None
    True
    """
    roles = set(roles or ())
    if roles & INSTRUCTOR_ROLES:
        return "instructor"
    if roles & LEARNER_ROLES:
        return "student"
    return None
