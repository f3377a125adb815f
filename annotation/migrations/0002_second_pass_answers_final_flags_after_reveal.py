"""Second-pass answers become final; flags say whether they were raised after the reveal.

Until now a worker could answer a question again after the page had shown them the original
answer, and the new answer replaced the old one (row and extra gold span deleted, new ones
created), so the stored answer could be a copy of the original. From this migration on
``second_pass_answer_save`` writes a worker's answer once and refuses any other; what the worker
thinks after the reveal is a ``QuestionFlag`` with ``after_reveal`` set, never an answer.

Existing data, and why it is left as it is:

* Answers. The rule is "keep the worker's FIRST answer if its history exists, else the stored
  one". The old model kept no history: replacing an answer deleted the earlier ``SecondPassAnswer``
  and its ``SpanAnswer`` without a trace (no audit table, no earlier row, no timestamp left behind),
  so the stored answer is the only one there is and it is kept, unchanged, with its extra gold
  span. Dropping stored answers instead would discard every answer collected so far, nearly all
  of them given blind, to remove an unknown few that were not; a project that must be sure can
  re-collect its second pass.
* Flags. The old page offered flagging only once the original answer was shown (the flag was
  sent together with a re-sent answer), and a flag sent with a first answer through the API
  cannot be told apart from those (same transaction, same timestamps). Every existing flag is
  therefore labelled ``after_reveal``: a flag is never presented as more independent than it may
  have been. The label changes no number; flags never count as answers.
"""
from django.db import migrations, models


def label_existing_flags(apps, schema_editor) -> None:
    QuestionFlag = apps.get_model("annotation", "QuestionFlag")
    QuestionFlag.objects.update(after_reveal=True)


class Migration(migrations.Migration):

    dependencies = [
        ("annotation", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="questionflag",
            name="after_reveal",
            field=models.BooleanField(
                default=False,
                help_text="Raised after the worker saw the original answer (a proposal, not a blind answer)",
            ),
        ),
        migrations.AlterField(
            model_name="questionflag",
            name="proposal",
            field=models.CharField(
                choices=[("fix_answer", "Replace the answer with the proposed span"),
                         ("mark_unanswerable", "The question cannot be answered from the paragraph"),
                         ("remove_question", "Remove the question")],
                max_length=24,
            ),
        ),
        migrations.RunPython(label_existing_flags, migrations.RunPython.noop),
    ]
