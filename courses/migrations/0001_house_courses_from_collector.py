"""Course and Enrollment move from the collector app to this one, keeping their tables.

State only: the tables ``collector_course``, ``collector_course_instructors`` and
``collector_enrollment`` stay as they are (``db_table``), so no row is copied. The collector's
migration 0008 points its foreign keys here and drops the models from its own state.
"""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import courses.models


class Migration(migrations.Migration):

    dependencies = [
        ("collector", "0007_bf16_setting_auto_on_off"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Course",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=200)),
                        ("join_code", models.CharField(default=courses.models.new_join_code, max_length=16, unique=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("owner", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="owned_courses", to=settings.AUTH_USER_MODEL)),
                        ("instructors", models.ManyToManyField(blank=True, related_name="taught_courses", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={"db_table": "collector_course", "ordering": ["name"]},
                ),
                migrations.CreateModel(
                    name="Enrollment",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("joined_at", models.DateTimeField(auto_now_add=True)),
                        ("course", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="enrollments", to="courses.course")),
                        ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="enrollments", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "db_table": "collector_enrollment",
                        "constraints": [models.UniqueConstraint(fields=("course", "user"), name="unique_enrollment")],
                    },
                ),
                migrations.AddField(
                    model_name="course",
                    name="students",
                    field=models.ManyToManyField(blank=True, related_name="enrolled_courses", through="courses.Enrollment", to=settings.AUTH_USER_MODEL),
                ),
            ],
            database_operations=[],
        ),
    ]
