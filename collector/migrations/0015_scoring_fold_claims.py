"""Folds in parallel: a lease per (trial, fold) of a scoring run, and the worker that trained each fold."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("collector", "0014_training_job_kind_starter"),
    ]

    operations = [
        migrations.AddField(
            model_name="scoringfold",
            name="worker",
            field=models.CharField(blank=True, default="", help_text="host:pid of the worker that trained it",
                                   max_length=200),
        ),
        migrations.CreateModel(
            name="ScoringFoldClaim",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("trial", models.PositiveSmallIntegerField()),
                ("fold", models.PositiveSmallIntegerField()),
                ("owner", models.CharField(blank=True, default="", help_text="host:pid; empty while nobody trains it",
                                           max_length=200)),
                ("heartbeat_at", models.DateTimeField(blank=True, null=True)),
                ("step", models.PositiveIntegerField(default=0)),
                ("total_steps", models.PositiveIntegerField(default=0)),
                ("run", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="fold_claims",
                                          to="collector.scoringrun")),
            ],
            options={
                "ordering": ["trial", "fold"],
                "constraints": [models.UniqueConstraint(fields=("run", "trial", "fold"), name="unique_scoring_fold_claim")],
            },
        ),
    ]
