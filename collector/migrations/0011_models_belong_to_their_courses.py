"""A model fine-tuned on a course's questions belongs to that course (modelhub 0002): the versions
that a round's training job registered, and the rounds' answer-only models, get their round's course.

A model registered some other way (``train_mc_model``, the admin) stays public; an operator can
give it a course in the admin. Reversing leaves the field to modelhub 0002 to drop.
"""
from django.db import migrations


def models_to_their_courses(apps, schema_editor):
    ModelVersion = apps.get_model("modelhub", "ModelVersion")
    TrainingJob = apps.get_model("collector", "TrainingJob")
    Round = apps.get_model("collector", "Round")
    trained = TrainingJob.objects.exclude(model_version=None).values_list("model_version_id", "round__course_id")
    answer_only = Round.objects.exclude(answer_only_model=None).values_list("answer_only_model_id", "course_id")
    for version_id, course_id in [*trained, *answer_only]:
        ModelVersion.objects.filter(pk=version_id, course=None).update(course_id=course_id)


class Migration(migrations.Migration):

    dependencies = [
        ("collector", "0010_round_import_source_dataset_license"),
        ("modelhub", "0002_modelversion_course_and_shared"),
    ]

    operations = [migrations.RunPython(models_to_their_courses, migrations.RunPython.noop)]
