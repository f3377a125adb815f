"""The annotation app's models (Django finds them here), one module per concern: projects and their
passages, authoring (sessions, questions, answer spans), the second pass (blind answers, flags),
invites (links and members) and qa_models (the project's QA training job)."""
from annotation.models.authoring import AnnotationSession, SpanAnswer, SpanQuestion
from annotation.models.invites import ProjectInvite, ProjectMember
from annotation.models.participants import ParticipantDeletion
from annotation.models.projects import RTL_LANGUAGES, Article, Language, Paragraph, Project, Split
from annotation.models.qa_models import QATrainingJob
from annotation.models.second_pass import QuestionFlag, SecondPassAnswer

__all__ = [
    "RTL_LANGUAGES", "AnnotationSession", "Article", "Language", "Paragraph", "ParticipantDeletion", "Project", "ProjectInvite",
    "ProjectMember", "QATrainingJob", "QuestionFlag", "SecondPassAnswer", "SpanAnswer", "SpanQuestion", "Split",
]
