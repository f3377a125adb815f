"""Test data of the evaluation app: a round whose model leans on a lexical artifact, a project
with a lexical shortcut, finished reports and evaluations, rows of stored sections, releases."""
from io import StringIO

from django.core.management import call_command
from django.utils import timezone

from annotation.models import SpanAnswer, SpanQuestion
from annotation.tests.factories import EN_CONTEXT, add_paragraphs, make_project
from collector.models import CVPrediction, Question, ScoringFold, ScoringRun
from collector.services.questions import question_submit
from collector.tests.factories import question_data
from evaluation.services import leaderboards as leaderboard_services
from evaluation.services import reports as report_services

# (category, answer key, status) of a leaderboard round's questions: the fake live model always
# picks D (index 3), so a question fooled it unless its key is 3.
ROUND_PLAN = [
    ("idioms", 0, "accepted"), ("idioms", 3, "accepted"), ("idioms", 1, "accepted"),
    ("negation", 2, "accepted"), ("negation", 3, "accepted"),
    ("other", 0, "rejected"), ("other", 1, "pending"),
]
WORDS = ["the cat ate an apple .", "my brother saw the ball .", "a dog liked a book .", "the teacher found the car ."]
# Right completions say "gladly", wrong ones "never"; the CV model picks the "gladly" one except
# on the last two questions of every category, where a wrong one says "gladly" too and fools it.
CATEGORY_PLAN = [("idioms", 6), ("negation", 4), ("other", 2)]


def artifact_questions(user, round_):
    """Twelve questions; returns them with the index the biased model picks for each."""
    made = []
    number = 0
    for category, count in CATEGORY_PLAN:
        for i in range(count):
            number += 1
            tricky = i >= count - 2
            choices = [f"gladly helps friend {number}.", f"never eats apple {number}.",
                       f"never sings song {number}.", f"{'gladly' if tricky else 'never'} reads book {number}."]
            question = question_submit(
                user=user, round_id=round_.pk,
                **question_data(prompt=f"Question {number} about {category}. They", choices=choices,
                                correct_index=0, categories=[category]),
            )
            made.append((question, 3 if tricky else 0))
    return made


def scoring_run_with_predictions(round_, picks: dict[int, list[int]], *, kind="cross_validation", folds=2):
    """A finished scoring run whose out-of-fold model picked ``picks[question_id][trial]``."""
    ids = sorted(picks)
    trials = len(picks[ids[0]])
    run = ScoringRun.objects.create(
        round=round_, kind=kind, status=ScoringRun.Status.DONE, folds=folds, trials=trials,
        base_checkpoint="tiny", question_ids=ids, summary={}, finished_at=timezone.now(),
    )
    gold = dict(round_.questions.filter(pk__in=ids).values_list("pk", "correct_index"))
    for t in range(trials):
        for f in range(folds):
            ScoringFold.objects.create(run=run, trial=t, fold=f, accuracy=0.5, n_train=1, n_test=1, seconds=0.1)
    CVPrediction.objects.bulk_create(
        CVPrediction(run=run, question_id=pk, trial=t, fold=i % folds, probs=[0.25] * 4,
                     predicted_index=picks[pk][t], correct=picks[pk][t] == gold[pk])
        for i, pk in enumerate(ids) for t in range(trials)
    )
    return run


def qa_model_version(name: str):
    """A registered extractive QA model: a registry entry only (nothing loads it; a report reads the
    stored answers), which is what gives a project's report its model scores (EM/F1)."""
    from modelhub.services import model_version_register

    return model_version_register(name=name, kind="question_answering", path=f"/models/{name}")


def span_project(owner, qa_version=None, *, name="nile-eval"):
    """A project whose unanswerable train questions say "first", and whose model in the loop
    answers nothing whenever a question says "first" (a lexical shortcut):

    train (no model answers): 4 answerable "Which/Where ..." + 4 unanswerable "... first ...";
    validation: answerable "the Mediterranean Sea" answered "Mediterranean Sea" (EM 1), answerable
    "Khartoum" with "first" answered "" (EM 0), unanswerable with "first" answered "" (EM 1),
    unanswerable without "first" answered "Alexandria" (EM 0).
    """
    project = make_project(owner, name=name)
    train = add_paragraphs(project, [EN_CONTEXT], split="train", title="Nile")[0]
    validation = add_paragraphs(project, [EN_CONTEXT], split="validation", title="Nile 2")[0]
    rows = [
        (train, "Which sea does the Nile empty into?", "the Mediterranean Sea", None),
        (train, "Where do the two branches meet?", "Khartoum", None),
        (train, "Which continent has the Nile?", "Africa", None),
        (train, "Which branch is white?", "the White Nile", None),
        (train, "Who built the first dam?", None, None),
        (train, "Who first sailed the Nile?", None, None),
        (train, "When did the first flood happen?", None, None),
        (train, "What was the first bridge called?", None, None),
        (validation, "Which sea is at the end?", "the Mediterranean Sea", "Mediterranean Sea"),
        (validation, "Where do the branches first meet?", "Khartoum", ""),
        (validation, "Who first mapped the Nile?", None, ""),
        (validation, "Who named the Blue Nile?", None, "Alexandria"),
    ]
    for i, (paragraph, text, gold, predicted) in enumerate(rows):
        question = SpanQuestion.objects.create(
            project=project, paragraph=paragraph, qid=f"q{i}", question=text, is_impossible=gold is None,
            status=SpanQuestion.Status.SUBMITTED, position=i, qa_model_version=qa_version if predicted is not None else None,
            qa_prediction_text=predicted or "",
        )
        if gold is not None:
            SpanAnswer.objects.create(question=question, text=gold, answer_start=paragraph.context.index(gold))
    SpanQuestion.objects.create(project=project, paragraph=train, qid="draft", question="Unsent draft?",
                                status=SpanQuestion.Status.DRAFT)
    return project


# Few Adam steps: the reweighting itself is tested in mlcore; reports here only need its weights.
FAST_CONFIG = {"k": 5, "max_steps": 30, "min_count": 2}


def finished_report(user, *, round_=None, project=None, config=None):
    """A report of ``round_`` (or ``project``) started and computed here, as the worker would.

    Patch the ambiguity probes away for a project (the ``no_probes`` fixture) unless
    the test is about them: they read passages and a QA model.
    """
    config = config or FAST_CONFIG
    if round_ is not None:
        run = report_services.evaluation_start_round(round_=round_, user=user, config=config)
    else:
        run = report_services.evaluation_start_project(project=project, user=user, config=config)
    return report_services.evaluation_run(run_id=run.pk)


def section_rows(section: dict, name: str) -> list[dict]:
    """The rows of a stored section's table ``name`` as dicts keyed by column."""
    item = section["tables"][name]
    return [dict(zip(item["columns"], row)) for row in item["rows"]]


def make_questions(round_, user, plan, *, prefix="q"):
    """One question per ``(category, answer key, status)`` of ``plan``, in the vocabulary of the tiny models."""
    made = []
    for i, (category, key, status) in enumerate(plan):
        prompt = f"{prefix} {i} the man was hungry . he"
        question = question_submit(
            user=user, round_id=round_.pk,
            **question_data(prompt=prompt, choices=[f"{w} {prompt.split()[1]}" for w in WORDS], correct_index=key,
                            categories=[category]))
        Question.objects.filter(pk=question.pk).update(status=status)
        made.append(question)
    return made


def model_evaluation_finished(version, round_):
    """``version`` evaluated on ``round_`` here, as the worker would."""
    evaluation = leaderboard_services.model_evaluation_start(model_version=version, round_=round_)
    return leaderboard_services.model_evaluation_run(evaluation_id=evaluation.pk)


def load_release(folder):
    """``load_dataset`` with a fresh cache: its cache key does not change with the folder's path
    alone, so two exports in one test session would otherwise read the first one's rows."""
    import datasets  # heavy (about 1.4 s): only the release tests load it

    return datasets.load_dataset(str(folder), cache_dir=str(folder.parent / "hf-cache"))


def write_labelled_tsv(path, rows):
    """A labelled TSV file of ``(text_a, text_b, label)`` rows with its header (``lexical_bias``, ``reweight``)."""
    path.write_text("text_a\ttext_b\tlabel\n" + "".join(f"{a}\t{b}\t{y}\n" for a, b, y in rows), encoding="utf-8")
    return path


def command_output(*args) -> str:
    """What ``manage.py <args>`` prints on standard output."""
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()
