"""``manage.py starter_model``: queue the demo round's starter model, fine-tuned on CODAH in the background
(``collector.services.starter``; run by scripts/start.sh after ``seed_demo``). Safe to run again: once the
starter model exists or its job is queued, running or done, nothing new is queued."""
from django.core.management.base import BaseCommand

from collector.services.starter import STARTER_MODEL_NAME, demo_starter_schedule


class Command(BaseCommand):
    help = "Queue the starter model (MiniLM fine-tuned on CODAH) for the demo round, once."

    def handle(self, *args, **options) -> None:
        job = demo_starter_schedule()
        if job is None:
            self.stdout.write(f"Starter model: {STARTER_MODEL_NAME} is already registered (or there is no demo round)")
        elif job.status == job.Status.DONE:
            self.stdout.write(f"Starter model: {STARTER_MODEL_NAME} was trained by job {job.pk}")
        else:
            self.stdout.write(f"Starter model: job {job.pk} is {job.status}; version 0 serves until it is ready")
