"""The report's model foreign key points at ModelVersion in its new app (state only: same table)."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("evaluation", "0002_ambiguity_datasets"),
        ("modelhub", "0001_house_modelversion_from_collector"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="evaluationrun",
                    name="model_version",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="evaluation_runs", to="modelhub.modelversion"),
                ),
            ],
            database_operations=[],
        ),
    ]
