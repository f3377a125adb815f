"""The QA model foreign keys point at ModelVersion in its new app (state only: same table)."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("annotation", "0002_second_pass_answers_final_flags_after_reveal"),
        ("modelhub", "0001_house_modelversion_from_collector"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="project",
                    name="qa_model",
                    field=models.ForeignKey(blank=True, help_text="Extractive QA model that answers while the worker writes (blank: no model in the loop)", limit_choices_to={"kind": "question_answering"}, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="annotation_projects", to="modelhub.modelversion"),
                ),
                migrations.AlterField(
                    model_name="spanquestion",
                    name="qa_model_version",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to="modelhub.modelversion"),
                ),
            ],
            database_operations=[],
        ),
    ]
