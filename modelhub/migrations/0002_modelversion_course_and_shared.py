"""Which course a model was trained for (its instructors' model) and whether they shared it with every
instructor. Existing rows get no course (public, as before); the collector's migration 0011 gives the
models its training jobs and answer-only models made the course they were trained for."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("courses", "0001_house_courses_from_collector"),
        ("modelhub", "0001_house_modelversion_from_collector"),
    ]

    operations = [
        migrations.AddField(
            model_name="modelversion",
            name="course",
            field=models.ForeignKey(
                blank=True, help_text="The course whose questions trained it: only its instructors see and serve it "
                "unless shared. Blank: public (a packaged model or one the operator registered).",
                null=True, on_delete=django.db.models.deletion.PROTECT, related_name="trained_models",
                to="courses.course"),
        ),
        migrations.AddField(
            model_name="modelversion",
            name="shared",
            field=models.BooleanField(
                default=False,
                help_text="Every instructor may see it and serve it in their rounds, not only its course's."),
        ),
    ]
