"""ModelVersion moves from the collector app to this one, keeping its table.

State only: ``collector_modelversion`` stays as it is (``db_table``), so no row is copied. The
collector's migration 0008 (and annotation 0003, evaluation 0003) point their foreign keys here.
"""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("collector", "0007_bf16_setting_auto_on_off"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ModelVersion",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=100, unique=True)),
                        ("kind", models.CharField(choices=[("zero_shot_embedding", "Zero-shot sentence-embedding scorer"), ("multiple_choice", "Fine-tuned multiple-choice model"), ("question_answering", "Extractive question answering")], max_length=32)),
                        ("path", models.CharField(help_text="Local folder, hub id or packaged:all-MiniLM-L6-v2", max_length=500)),
                        ("revision", models.CharField(blank=True, max_length=64)),
                        ("metrics", models.JSONField(blank=True, default=dict)),
                        ("description", models.TextField(blank=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("base", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="derived", to="modelhub.modelversion")),
                    ],
                    options={"db_table": "collector_modelversion", "ordering": ["-created_at"]},
                ),
            ],
            database_operations=[],
        ),
    ]
