"""Store each question's fold (per trial) when a scoring run starts: ``ScoringRunAssignment``.

Schema only. Runs that are queued or running when this migration is applied have no stored folds;
``collector.services.scoring`` computes them at resume from the run's questions that still exist (the only
data left) and stores them. If a question was deleted before the upgrade so that folds the run
already finished no longer match, those folds are scored again (see ``services.scoring._legacy_folds``).
Finished runs need no folds stored: their predictions record theirs.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('collector', '0004_quality'),
    ]

    operations = [
        migrations.CreateModel(
            name='ScoringRunAssignment',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('trial', models.PositiveSmallIntegerField()),
                ('fold', models.PositiveSmallIntegerField()),
                ('question', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='scoring_assignments', to='collector.question')),
                ('run', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='assignments', to='collector.scoringrun')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('run', 'question', 'trial'), name='unique_scoring_assignment')],
            },
        ),
    ]
