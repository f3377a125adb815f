"""``manage.py lexical_bias`` on files (SPEC §1.6/§2.4 toys, real SNLI)."""
import json
import math
import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from scipy import stats

from evaluation.tests.factories import command_output, write_labelled_tsv
from mlcore.tests.bias.test_lexical import TOY_HYPOTHESES, TOY_LABELS, TOY_PREMISES
from mlcore.tests.shared_data import shared_data

EVAL = [("Nobody is outside.", "C", "C"), ("A man is outdoors.", "E", "E"), ("Nobody sings.", "N", "C"),
        ("Two dogs sleep outside.", "E", "E"), ("The friends are outdoors.", "N", "E"), ("Nobody is home.", "C", "C"),
        ("A woman reads.", "E", "E"), ("Nobody is outdoors.", "E", "C")]


@pytest.fixture
def toy_files(tmp_path):
    train = write_labelled_tsv(tmp_path / "train.tsv", zip(TOY_PREMISES, TOY_HYPOTHESES, TOY_LABELS))
    test = write_labelled_tsv(tmp_path / "test.tsv", [(text, "", gold) for text, gold, _ in EVAL])
    predictions = tmp_path / "pred.txt"
    predictions.write_text("".join(f"{pred}\n" for _, _, pred in EVAL))
    return train, test, predictions


class LexicalBiasCommandTests:
    def test_r6_r8_as_json(self, toy_files):
        train, test, predictions = toy_files
        result = json.loads(command_output("lexical_bias", "--train", train, "--test", test, "--predictions", predictions,
                                "--k", "2", "--labels", "E,N,C", "--json"))
        assert {label: [f["feature"] for f in fs] for label, fs in result["top_features"].items()} == {
            "E": ["outdoors", "outside"], "N": ["friends", "sings"], "C": ["nobody", "dogs"]}
        assert result["top_features"]["E"][0] == {"feature": "outdoors", "z": 2.0, "count": 2, "n": 2}
        assert {k: result[k] for k in ("n_U", "n_N", "n_overlap", "a", "b", "pvalue")} == {
            "n_U": 7, "n_N": 5, "n_overlap": 5, "a": 4, "b": 2, "pvalue": 0.5}
        assert result["log10_pvalue"] == pytest.approx(math.log10(0.5))

    def test_r30_stratified_by_gold(self, toy_files):
        train, test, predictions = toy_files
        result = json.loads(command_output("lexical_bias", "--train", train, "--test", test, "--predictions", predictions,
                                "--k", "2", "--labels", "E,N,C", "--stratify", "gold", "--json"))
        assert result["stratified"] is True and result["pvalue"] == 0.7 and result["a"] == 4
        assert result["unstratified_test"]["pvalue"] == 0.5 and result["stratified_test"]["pvalue"] == 0.7
        assert [(s["label"], s["n_U"], s["n_N"], s["a"], s["b"]) for s in result["strata"]] == [
            ("E", 3, 2, 2, 1), ("N", 2, 2, 0, 0), ("C", 2, 1, 2, 1)]
        default = json.loads(command_output("lexical_bias", "--train", train, "--test", test, "--predictions", predictions,
                                 "--k", "2", "--labels", "E,N,C", "--json"))
        assert default["stratified"] is False and default["pvalue"] == 0.5 and default["strata"] == result["strata"]

    def test_warns_when_accuracy_differs_between_gold_labels(self, toy_files, tmp_path):
        train, _, _ = toy_files
        # Always right on contradiction, always wrong on entailment: accuracy depends on the gold label.
        rows = [("Nobody is outside.", "", "C")] * 30 + [("A man is outdoors.", "", "E")] * 30
        test = write_labelled_tsv(tmp_path / "skewed.tsv", rows)
        predictions = tmp_path / "skewed.txt"
        predictions.write_text("C\n" * 60)
        args = ("lexical_bias", "--train", train, "--test", test, "--predictions", predictions, "--k", "2", "--json")
        out, err = StringIO(), StringIO()
        call_command(*args, stdout=out, stderr=err)
        result = json.loads(out.getvalue())
        gold = result["accuracy_by_gold"]
        assert gold["differs"] is True and gold["statistic"] == pytest.approx(
            stats.chi2_contingency([[30, 0], [0, 30]], correction=False).statistic)
        assert len(result["warnings"]) == 1 and "Accuracy differs between gold labels" in result["warnings"][0]
        assert "--stratify gold" in err.getvalue() and "Accuracy differs" in err.getvalue()
        out, err = StringIO(), StringIO()
        call_command(*args, "--stratify", "gold", stdout=out, stderr=err)
        assert json.loads(out.getvalue())["warnings"] == [] and err.getvalue() == ""

    def test_text_output(self, toy_files):
        train, test, predictions = toy_files
        text = command_output("lexical_bias", "--train", train, "--test", test, "--predictions", predictions, "--k", "2")
        assert "C: nobody (2.00, 2/2)" in text and "p = 5.0e-1" in text and "overlap 5" in text
        assert "Chosen test: Unstratified (Serrano et al. §3" in text and "p = 7.0e-1" in text

    def test_bad_files_are_a_command_error(self, toy_files, tmp_path):
        train, test, predictions = toy_files
        short = tmp_path / "short.txt"
        short.write_text("C\nE\n")
        with pytest.raises(CommandError, match="2 prediction\\(s\\) for 8 test instance\\(s\\)"):
            command_output("lexical_bias", "--train", train, "--test", test, "--predictions", short)
        bad_test = write_labelled_tsv(tmp_path / "bad.tsv", [("x", "", "maybe")])
        with pytest.raises(CommandError, match="line 2: label 'maybe' does not occur"):
            command_output("lexical_bias", "--train", train, "--test", bad_test, "--predictions", short)
        with pytest.raises(CommandError, match="cannot read the file"):
            command_output("lexical_bias", "--train", tmp_path / "nope.tsv", "--test", test, "--predictions", predictions)
        with pytest.raises(CommandError, match="labels N are not in --labels"):
            command_output("lexical_bias", "--train", train, "--test", test, "--predictions", predictions, "--labels", "E,C")
        with pytest.raises(CommandError, match="--k"):
            command_output("lexical_bias", "--train", train, "--test", test, "--predictions", predictions, "--k", "0")


def test_real_snli_dev_against_test(tmp_path):
    """SNLI dev as training data: the paper's contradiction artifacts come out on top (SDS23 App. A.1)."""
    snli = shared_data("snli")

    def split(name):
        lines = [(snli / f"{part}.{name}").read_text(encoding="utf-8").splitlines() for part in ("s1", "s2", "labels")]
        return list(zip(*lines))

    train = write_labelled_tsv(tmp_path / "train.tsv", split("dev"))
    test_rows = split("test")
    test = write_labelled_tsv(tmp_path / "test.tsv", test_rows)
    # A lexically biased "model": right 70% of the time, but it follows a few of the paper's artifact
    # words whatever the gold label is.
    cue = {"nobody": "contradiction", "sleeping": "contradiction", "cat": "contradiction", "outdoors": "entailment",
           "outside": "entailment", "tall": "neutral", "friends": "neutral"}
    rng = random.Random(0)
    labels = ["contradiction", "entailment", "neutral"]
    guesses = []
    for _, hypothesis, gold in test_rows:
        cued = [cue[w] for w in hypothesis.lower().split() if w in cue]
        guesses.append(cued[0] if cued else gold if rng.random() < 0.7 else rng.choice(labels))
    predictions = tmp_path / "pred.txt"
    predictions.write_text("".join(f"{g}\n" for g in guesses))
    result = json.loads(command_output("lexical_bias", "--train", train, "--test", test, "--predictions", predictions,
                            "--json"))
    contradiction = [f["feature"] for f in result["top_features"]["contradiction"][:5]]
    assert {"nobody", "sleeping"} <= set(contradiction)
    assert result["n_features_selected"] <= 150 and result["acc_U"] > result["acc_N"]
    assert result["pvalue"] < 1e-4 and result["log10_pvalue"] == pytest.approx(math.log10(result["pvalue"]))
