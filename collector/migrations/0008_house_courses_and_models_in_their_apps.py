"""Course and Enrollment now live in the courses app, ModelVersion in modelhub; same tables.

State only for the models (``courses/0001``, ``modelhub/0001`` took them over with their
``db_table``): the foreign keys point at the new apps and the models leave this app's state. No
row is copied. The content types follow, so admin history and permissions stay attached.
"""
import django.db.models.deletion
from django.db import migrations, models

MOVED = {"course": "courses", "enrollment": "courses", "modelversion": "modelhub"}


def _move_content_types(apps, schema_editor, forward: bool = True) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model, app in MOVED.items():
        old, new = ("collector", app) if forward else (app, "collector")
        if not ContentType.objects.filter(app_label=new, model=model).exists():
            ContentType.objects.filter(app_label=old, model=model).update(app_label=new)


def _move_back(apps, schema_editor) -> None:
    _move_content_types(apps, schema_editor, forward=False)


class Migration(migrations.Migration):

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("collector", "0007_bf16_setting_auto_on_off"),
        ("courses", "0001_house_courses_from_collector"),
        ("modelhub", "0001_house_modelversion_from_collector"),
        ("annotation", "0003_house_modelversion_in_modelhub"),
        ("evaluation", "0003_house_modelversion_in_modelhub"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="round",
                    name="course",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="rounds", to="courses.course"),
                ),
                migrations.AlterField(
                    model_name="round",
                    name="live_model",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="live_in_rounds", to="modelhub.modelversion"),
                ),
                migrations.AlterField(
                    model_name="round",
                    name="answer_only_model",
                    field=models.ForeignKey(blank=True, help_text="Model trained on completions only (prompts blanked); the coach asks it about each draft", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="answer_only_in_rounds", to="modelhub.modelversion"),
                ),
                migrations.AlterField(
                    model_name="prediction",
                    name="model_version",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, to="modelhub.modelversion"),
                ),
                migrations.AlterField(
                    model_name="trainingjob",
                    name="model_version",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to="modelhub.modelversion"),
                ),
                migrations.RemoveField(model_name="course", name="students"),
                migrations.DeleteModel(name="Enrollment"),
                migrations.DeleteModel(name="Course"),
                migrations.DeleteModel(name="ModelVersion"),
            ],
            database_operations=[],
        ),
        migrations.RunPython(_move_content_types, _move_back),
    ]
