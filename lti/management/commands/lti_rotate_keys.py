"""Make a new LTI signing key; the previous public key stays in /lti/jwks/ until its tokens expire."""
from django.core.management.base import BaseCommand

from lti.services.keys import tool_key_rotate


class Command(BaseCommand):
    help = "Rotate the LTI tool's signing key (the old public key stays published for STUMPER_LTI_KEY_OVERLAP_SECONDS)."

    def handle(self, *args, **options) -> None:
        key = tool_key_rotate()
        self.stdout.write(f"New LTI signing key {key.kid}")
