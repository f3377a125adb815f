"""The bfloat16 scoring setting becomes ``auto | on | off`` (it was a boolean).

Rounds only stored the setting when it differed from the preset, whose old value was ``True``,
so a stored ``False`` means the instructor switched bfloat16 off: it stays ``"off"``. A stored
``True`` (only possible through older API clients) becomes ``"auto"``, not ``"on"``: the old
default turned bfloat16 on everywhere, which made CPUs without native bfloat16 many times
slower, and ``auto`` keeps it wherever it is really faster. Queued and running scoring runs get
the same mapping (they resume with it); finished runs keep the booleans that describe what they
ran with (``FineTuneConfig`` reads ``True``/``False`` as ``on``/``off``).
"""
from django.db import migrations


def _to_setting(value):
    return {True: "auto", False: "off"}[value] if isinstance(value, bool) else value


def _to_boolean(value):
    return value != "off" if isinstance(value, str) else value


def _convert(apps, convert) -> None:
    rounds = apps.get_model("collector", "Round").objects.all()
    active_runs = apps.get_model("collector", "ScoringRun").objects.filter(status__in=["queued", "running"])
    for rows, field in ((rounds, "scoring_config"), (active_runs, "config")):
        for row in rows:
            settings = getattr(row, field) or {}
            if "bf16" in settings and convert(settings["bf16"]) != settings["bf16"]:
                settings["bf16"] = convert(settings["bf16"])
                row.save(update_fields=[field])


def forwards(apps, schema_editor) -> None:
    _convert(apps, _to_setting)


def backwards(apps, schema_editor) -> None:
    _convert(apps, _to_boolean)


class Migration(migrations.Migration):

    dependencies = [
        ("collector", "0006_worker_hardware"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
