"""``manage.py reweight`` on files (SPEC §3.6 toys)."""
import json

import pytest
from django.core.management import CommandError

from evaluation.tests.factories import command_output, write_labelled_tsv


class ReweightCommandTests:
    def test_r13_r15_weights_file(self, tmp_path):
        train = write_labelled_tsv(tmp_path / "train.tsv", zip(["a b", "a", "a c", "b c", "c", "b"], [""] * 6, "AABBAB"))
        weights = tmp_path / "weights.txt"
        result = json.loads(command_output("reweight", "--train", train, "--min-count", "1", "--weights-out", weights, "--json"))
        assert result["features_used"] == 3 and result["features_dropped"] == []
        assert result["err_initial"] == pytest.approx(1 / 6) and result["err_final"] < 1e-6  # R13, R15
        assert result["err_marg_initial"] == pytest.approx(1 / 6) and result["ess"] <= 6
        assert {"bigram_lb_uniform", "bigram_lb_q"} <= set(result)
        values = [float(line) for line in weights.read_text().splitlines()]
        assert len(values) == 6 and sum(values) == pytest.approx(6.0, rel=1e-6) and min(values) > 0

    def test_dropped_features_and_text_output(self, tmp_path):
        train = write_labelled_tsv(tmp_path / "train.tsv", zip(["a b", "a", "a c", "b c", "c", "b zebra"], [""] * 6, "AABBAB"))
        text = command_output("reweight", "--train", train, "--min-count", "1", "--max-steps", "5")
        assert "dropped: zebra" in text and "Err " in text

    def test_unwritable_weights_path(self, tmp_path):
        train = write_labelled_tsv(tmp_path / "train.tsv", zip(["a b", "b"], ["", ""], "AB"))
        with pytest.raises(CommandError, match="Cannot write the weights"):
            command_output("reweight", "--train", train, "--min-count", "1", "--weights-out", tmp_path / "no" / "dir" / "w.txt")
