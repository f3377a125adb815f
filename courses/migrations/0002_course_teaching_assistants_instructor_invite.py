"""Teaching assistants of a course, and its instructor invite link (issue 30 §2).

Both new: a M2M table ``collector_course_teaching_assistants`` and a nullable unique column.
"""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('courses', '0001_house_courses_from_collector'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='course',
            name='instructor_invite_token',
            field=models.CharField(blank=True, default=None, help_text='Whoever opens /courses/instructor-invite/<token>/ becomes a co-instructor (empty: no link)', max_length=64, null=True, unique=True),
        ),
        migrations.AddField(
            model_name='course',
            name='teaching_assistants',
            field=models.ManyToManyField(blank=True, help_text="Validate the course's questions at any time; no other power in the course", related_name='assisted_courses', to=settings.AUTH_USER_MODEL),
        ),
    ]
