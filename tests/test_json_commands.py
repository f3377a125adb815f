"""Every management command with ``--json`` prints exactly one JSON document on stdout.

The commands are found by introspection (each project command's argument parser is asked whether
it has ``--json``), so a new command is covered as soon as it exists; one without a sample
invocation in :data:`SAMPLES` fails here with a message saying to add one. Each command runs in a
fresh ``manage.py`` process with ``LOG_LEVEL=DEBUG``, so every log record, progress line and
library message a run can produce is there, and stdout must still parse with one ``json.loads``:
logs and progress belong on stderr (config/logging.py).

To cover a new command, add one line to :data:`SAMPLES`: a function of the :class:`SampleInputs`
(small valid files and a round in the test database, written once per run) returning the
command's arguments without ``--json``. Add a file to :class:`SampleInputs` if none fits.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.core.management import get_commands, load_command_class

from tests.worker import database_url_of_test_db

ROOT = Path(__file__).resolve().parent.parent
PROJECT_APPS = ("accounts", "collector", "annotation", "evaluation")


@dataclass(frozen=True)
class SampleInputs:
    """Small valid inputs for the sample invocations (paths as strings)."""

    round_name: str  # a round with a few questions, two of them near-duplicates
    squad_gold: str  # SQuAD 2.0 layout, one answerable and one unanswerable question
    squad_predictions: str
    nli_train: str  # lexical TSV (text_a, text_b, label)
    nli_test: str
    nli_predictions: str  # one label per test row
    codah: str  # CODAH TSV, 7 columns, no header (4 questions)
    codah_picks: str  # one chosen index (0-3) per CODAH question
    ambiguity_questions: str  # selectional-ambiguity JSON Lines
    ambiguity_predictions: str  # {id: answer}
    articles: str  # article JSON Lines ({"title", "paragraphs"})
    occupations: str  # UnQover occupation list
    release_dir: str  # a folder that does not exist yet (export_hf creates it)


# command name -> its arguments (without --json). Keep one line per command, sorted by name.
SAMPLES: dict[str, Callable[[SampleInputs], list[str]]] = {
    "ambiguity_retrieval": lambda i: ["--passages", i.articles, "--occupations", i.occupations],
    "ambiguity_selectional": lambda i: ["--questions", i.ambiguity_questions, "--predictions", i.ambiguity_predictions],
    "export_hf": lambda i: ["--round", i.round_name, "--status", "all", i.release_dir],
    "find_duplicates": lambda i: ["--round", i.round_name],
    "lexical_bias_mc": lambda i: ["--train", i.codah, "--test", i.codah, "--picks", i.codah_picks],
    "lexical_bias": lambda i: ["--train", i.nli_train, "--test", i.nli_test, "--predictions", i.nli_predictions,
                               "--k", "2"],
    "reweight": lambda i: ["--train", i.nli_train, "--min-count", "1", "--max-steps", "20"],
    "round_stats": lambda i: ["--round", i.round_name],
    "squad_eval": lambda i: [i.squad_gold, i.squad_predictions],
}


def _options(app: str, name: str) -> set[str]:
    parser = load_command_class(app, name).create_parser("manage.py", name)
    return {option for action in parser._actions for option in action.option_strings}


def commands_with_json_option() -> dict[str, set[str]]:
    """The project's management commands whose parser has a ``--json`` option, with all their options."""
    found = {}
    for name, app in sorted(get_commands().items()):
        if app in PROJECT_APPS and "--json" in (options := _options(app, name)):
            found[name] = options
    return found


JSON_COMMANDS = commands_with_json_option()

NLI_TRAIN = [("A man sleeps.", "Nobody is awake.", "C"), ("A man sleeps.", "A man is outdoors.", "N"),
             ("Dogs run.", "Animals are outdoors.", "E"), ("Dogs run.", "Nobody runs.", "C"),
             ("Kids play.", "Friends are outdoors.", "E"), ("Kids play.", "Kids sing.", "N")]
NLI_TEST = [("Nobody is outside.", "C", "C"), ("A man is outdoors.", "E", "E"), ("Nobody sings.", "N", "C")]
CODAH = ["i\tThe glass fell off the table. It\tshattered on the floor.\tflew away.\tsang a song.\tgrew taller.\t0",
         "n\tTom did not study at all. He\tfailed the test.\taced every exam.\twas the best student.\twon a prize.\t0",
         "q\tAnn had two cats and got one more. She\thad three cats.\thad no cats.\thad ten cats.\thad one cat.\t0",
         "o\tIt was raining hard, so Omar\tstayed dry outside.\twore sunglasses.\topened his umbrella.\twatered it.\t2"]


def _write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def _round_with_questions(round_, student) -> str:
    from collector.services.questions import question_submit

    for prompt in ("The man ate the whole pizza by himself. He", "The man ate the whole pizza by himself, so he",
                   "Sara dropped her phone in the lake. She"):
        question_submit(user=student, round_id=round_.pk, prompt=prompt,
                        choices=["was hungry.", "was full.", "sang.", "slept."], correct_index=0)
    return round_.name


@pytest.fixture
def sample_inputs(tmp_path, round_, student, fake_model) -> SampleInputs:
    squad = {"version": "v2.0", "data": [{"title": "T", "paragraphs": [{"context": "Denver Broncos won.", "qas": [
        {"id": "q1", "question": "Who won?", "answers": [{"text": "Denver Broncos", "answer_start": 0}],
         "is_impossible": False},
        {"id": "q2", "question": "Who lost?", "answers": [], "is_impossible": True}]}]}]}
    questions = [{"id": i, "name": f"law {i}", "question": f"Who discovered the law {i}", "context": "",
                  "options": [{"name": f"Ann Lee{i}", "gender": "female"}, {"name": f"Bob Ray{i}", "gender": "male"}]}
                 for i in (1, 2)]
    articles = {"Florence Nightingale": "Florence Nightingale was a nurse.", "Yuri Gagarin": "Yuri Gagarin was a pilot."}
    tsv = "text_a\ttext_b\tlabel\n"
    return SampleInputs(
        round_name=_round_with_questions(round_, student),
        squad_gold=_write(tmp_path / "gold.json", json.dumps(squad)),
        squad_predictions=_write(tmp_path / "pred.json", json.dumps({"q1": "Broncos", "q2": ""})),
        nli_train=_write(tmp_path / "train.tsv", tsv + "".join(f"{a}\t{b}\t{y}\n" for a, b, y in NLI_TRAIN)),
        nli_test=_write(tmp_path / "test.tsv", tsv + "".join(f"{a}\t\t{y}\n" for a, y, _ in NLI_TEST)),
        nli_predictions=_write(tmp_path / "pred.txt", "".join(f"{p}\n" for _, _, p in NLI_TEST)),
        codah=_write(tmp_path / "codah.tsv", "\n".join(CODAH) + "\n"),
        codah_picks=_write(tmp_path / "picks.txt", "0\n1\n0\n3\n"),
        ambiguity_questions=_write(tmp_path / "questions.jsonl", "".join(json.dumps(q) + "\n" for q in questions)),
        ambiguity_predictions=_write(tmp_path / "answers.json", json.dumps({"1": "Ann Lee1", "2": ""})),
        articles=_write(tmp_path / "articles.jsonl",
                        "".join(json.dumps({"title": t, "paragraphs": [p]}) + "\n" for t, p in articles.items())),
        occupations=_write(tmp_path / "occupations", "[p_act] was a nurse\n[p_act] was a pilot\n"),
        release_dir=str(tmp_path / "release"),
    )


def _manage(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "STUMPER_ENV_FILE": "/dev/null",
           "DATABASE_URL": database_url_of_test_db(), "HF_HUB_OFFLINE": "1", "LOG_LEVEL": "DEBUG"}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


def test_the_sample_table_names_only_commands_with_json():
    stale = sorted(set(SAMPLES) - set(JSON_COMMANDS))
    assert not stale, f"SAMPLES in {__file__} lists commands without a --json option: {stale}; remove them."


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("command", sorted(JSON_COMMANDS))
def test_json_output_is_one_json_document_on_stdout(command, sample_inputs):
    assert command in SAMPLES, (
        f"`manage.py {command}` has --json but no sample invocation: add a line for it to SAMPLES in {__file__} "
        f"(arguments for a small valid input; add a file to SampleInputs if none fits)."
    )
    # The system checks import every view (seconds per process) and are not what is tested here.
    skip_checks = ["--skip-checks"] if "--skip-checks" in JSON_COMMANDS[command] else []
    result = _manage(command, *SAMPLES[command](sample_inputs), "--json", *skip_checks)
    assert result.returncode == 0, f"manage.py {command} failed:\n{result.stderr[-3000:]}"
    try:
        document = json.loads(result.stdout)
    except json.JSONDecodeError as error:
        pytest.fail(f"stdout of `manage.py {command} --json` is not one JSON document ({error}); "
                    f"logs and progress belong on stderr. stdout starts with:\n{result.stdout[:500]}")
    assert isinstance(document, (dict, list)) and document
