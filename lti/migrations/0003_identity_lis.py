from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('lti', '0002_resource_link_project'),
    ]

    operations = [
        migrations.AddField(
            model_name='ltiidentity',
            name='person_sourcedid',
            field=models.CharField(blank=True, help_text='The SIS id of the user (Canvas: SIS User ID), from the launch', max_length=255, verbose_name='LIS person sourcedid'),
        ),
        migrations.AddField(
            model_name='ltiidentity',
            name='email',
            field=models.CharField(blank=True, help_text='The e-mail address the LMS sent at the last launch', max_length=254),
        ),
    ]
