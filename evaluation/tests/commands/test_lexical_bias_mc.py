"""``manage.py lexical_bias_mc``: forced-choice files, the round report's instances, bad files."""
import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from evaluation.reports.lexical import choice_instances, choice_predictions
from mlcore.bias.lexical_analysis import lexical_bias_analysis

ROOT = Path(__file__).resolve().parents[3]
# The word "gladly" is in the right answer of every question; "never" in a wrong one.
TRAIN = [("i", f"Prompt {n}. She", "gladly helps.", "never sleeps.", "sits down.", "runs off.", "0") for n in range(8)]
TEST = [("o", "Q1. He", "never talks.", "gladly helps.", "eats.", "waits.", "1"),
        ("o", "Q2. He", "gladly sings.", "never sings.", "hums.", "shouts.", "0"),
        ("n", "Q3. It", "stops.", "never stops.", "gladly goes.", "turns.", "2")]
PICKS = [1, 1, 2]  # right, wrong (picked "never sings."), right


def write_rows(path: Path, rows) -> Path:
    path.write_text("".join("\t".join(row) + "\n" for row in rows), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path):
    picks = tmp_path / "picks.txt"
    picks.write_text("".join(f"{p}\n" for p in PICKS))
    return write_rows(tmp_path / "train.tsv", TRAIN), write_rows(tmp_path / "test.tsv", TEST), picks


def run(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("lexical_bias_mc", *map(str, args), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


class LexicalBiasMcCommandTests:
    def test_json_is_the_round_reports_instances(self, files):
        train, test, picks = files
        stdout, _ = run("--train", train, "--test", test, "--picks", picks, "--k", "3", "--json")
        result = json.loads(stdout)  # one document, nothing else on stdout
        data = choice_instances(range(8), [row[2:6] for row in TRAIN], [0] * 8)
        held = choice_instances(range(3), [row[2:6] for row in TEST], [1, 0, 2])
        expected = lexical_bias_analysis(data.texts, data.labels, held.texts, held.labels,
                                         choice_predictions(PICKS, [row[2:6] for row in TEST]),
                                         label_set=("correct", "incorrect"), k=3, stratify="gold").to_dict()
        assert result["stratified"] is True
        for key in ("pvalue", "log10_pvalue", "n_U", "n_N", "a", "b", "strata"):
            assert result[key] == expected[key], key
        assert result["pvalue"] == expected["stratified_test"]["pvalue"]
        assert [s["label"] for s in result["strata"]] == ["correct", "incorrect"]
        assert {"label", "n_U", "n_N", "a", "b"} <= set(result["strata"][0])
        assert result["n_test"] == 12 and result["n_test_questions"] == 3 and result["accuracy"] == pytest.approx(2 / 3)

    def test_stratify_none_leads_with_the_unstratified_test_and_warns_when_needed(self, files):
        train, test, picks = files
        stdout, _ = run("--train", train, "--test", test, "--picks", picks, "--k", "3", "--stratify", "none", "--json")
        result = json.loads(stdout)
        assert result["stratified"] is False and result["pvalue"] == result["unstratified_test"]["pvalue"]
        # 2 of 3 correct completions and 8 of 9 incorrect ones judged right: too few to call a difference.
        assert [(r["label"], r["correct"], r["instances"]) for r in result["accuracy_by_gold"]["per_label"]] == [
            ("correct", 2, 3), ("incorrect", 8, 9)]
        assert result["accuracy_by_gold"]["differs"] is False and result["warnings"] == []

    def test_text_output_names_both_tests(self, files):
        train, test, picks = files
        stdout, _ = run("--train", train, "--test", test, "--picks", picks, "--k", "3")
        assert "Chosen test: Stratified by gold label" in stdout and "For comparison: Unstratified" in stdout

    @pytest.mark.parametrize("bad, message", [
        ("train_columns", r"train\.tsv: 1 problem.*\n  line 2: expected 7 tab-separated fields, found 6"),
        ("test_index", r"test\.tsv: 1 problem.*\n  line 3: correct answer index must be one of 0, 1, 2, 3"),
        ("pick_range", r"picks\.txt: 1 problem.*\n  line 2: '4' is not an answer index"),
        ("pick_text", r"picks\.txt: 1 problem.*\n  line 1: 'B' is not an answer index"),
        ("pick_float", r"picks\.txt: 1 problem.*\n  line 3: '2.0' is not an answer index"),
        ("too_few", r"picks\.txt: 1 problem.*\n  2 pick\(s\) for 3 test question\(s\)"),
        ("too_many", r"picks\.txt: 1 problem.*\n  4 pick\(s\) for 3 test question\(s\)"),
        ("empty_line", r"picks\.txt: 1 problem.*\n  line 2: empty line"),
        ("missing", r"nope\.tsv: 1 problem.*\n  cannot read the file"),
    ])
    def test_bad_files_are_a_command_error_naming_file_and_line(self, files, tmp_path, bad, message):
        train, test, picks = files
        if bad == "train_columns":
            write_rows(train, [TRAIN[0], TRAIN[1][:6]])
        elif bad == "test_index":
            write_rows(test, [TEST[0], TEST[1], (*TEST[2][:6], "7")])
        else:
            picks.write_text({"pick_range": "1\n4\n2\n", "pick_text": "B\n1\n2\n", "pick_float": "1\n1\n2.0\n",
                              "too_few": "1\n1\n", "too_many": "1\n1\n2\n0\n", "empty_line": "1\n\n2\n",
                              "missing": "1\n1\n2\n"}[bad])
        if bad == "missing":
            train = tmp_path / "nope.tsv"
        out = StringIO()
        with pytest.raises(CommandError, match=message):
            call_command("lexical_bias_mc", "--train", str(train), "--test", str(test), "--picks", str(picks),
                         "--json", stdout=out)
        assert out.getvalue() == ""


def test_bad_file_from_the_command_line_exits_1_with_nothing_on_stdout(files):
    train, test, picks = files
    picks.write_text("1\n9\n2\n")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "STUMPER_ENV_FILE": "/dev/null",
           "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "manage.py", "lexical_bias_mc", "--train", str(train), "--test", str(test),
                           "--picks", str(picks), "--json"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    assert "picks.txt" in done.stderr and "line 2: '9' is not an answer index" in done.stderr
