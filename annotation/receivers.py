"""What the annotation app tells the layers below it, which cannot import it."""
from django.dispatch import receiver

from accounts.languages import user_language_asked
from accounts.models import User
from annotation.selectors.worker_home import worker_projects_language


@receiver(user_language_asked)
def crowdworker_language(sender: type, user: User, **kwargs) -> str | None:
    """A crowdworker speaks their projects' language (the password-reset email is in it)."""
    return worker_projects_language(user=user)
