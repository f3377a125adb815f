"""Reading labelled TSV and prediction files: strict, line-numbered errors, nothing partial."""
import pytest

from mlcore.bias.lexical_io import (
    LabelledFileError,
    check_labels_known,
    parse_labelled_tsv,
    parse_picks,
    parse_predictions,
    read_labelled_tsv,
    read_predictions,
)

HEADER = "text_a\ttext_b\tlabel\n"


class LabelledTsvTests:
    def test_columns_in_any_order_and_extra_columns(self):
        data = parse_labelled_tsv('id\tlabel\ttext_b\ttext_a\n7\tE\t\tA "quoted" dog.\n8\tC\tNobody.\tA man.\n')
        assert data.text_a == ('A "quoted" dog.', "A man.") and data.text_b == ("", "Nobody.")
        assert data.labels == ("E", "C") and data.has_pairs and len(data) == 2

    def test_single_texts(self):
        data = parse_labelled_tsv(HEADER + "hello\t\tx\nbye\t\ty\n")
        assert not data.has_pairs and data.label_set() == ("x", "y")

    def test_crlf_and_bom(self, tmp_path):
        path = tmp_path / "train.tsv"
        path.write_bytes(("\ufeff" + HEADER + "a b\tc\tE\r\n").encode())
        assert read_labelled_tsv(path).labels == ("E",)

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("", "the file is empty"),
            ("sentence\tlabel\n", "missing text_a, text_b"),
            ("text_a\ttext_a\ttext_b\tlabel\n", "column text_a appears twice"),
            (HEADER, "header but no instances"),
            (HEADER + "a\tb\n", "line 2: 2 tab-separated field(s), the header has 3"),
            (HEADER + "a\tb\t \n", "line 2: the label is empty"),
            (HEADER + " \tb\tE\n", "line 2: text_a is empty"),
            (HEADER + "a\tb\tE\n\nc\td\tE\n", "line 3: empty line"),
        ],
    )
    def test_problems_name_their_line(self, text, expected):
        with pytest.raises(LabelledFileError) as error:
            parse_labelled_tsv(text, source="train.tsv")
        assert expected in str(error.value) and str(error.value).startswith("train.tsv:")

    def test_every_bad_line_is_listed_at_once(self):
        bad = HEADER + "".join("only one field\n" for _ in range(30))
        with pytest.raises(LabelledFileError) as error:
            parse_labelled_tsv(bad)
        assert len(error.value.problems) == 30 and "... and 10 more" in str(error.value)

    def test_unreadable_files(self, tmp_path):
        with pytest.raises(LabelledFileError, match="cannot read the file"):
            read_labelled_tsv(tmp_path / "missing.tsv")
        binary = tmp_path / "binary.tsv"
        binary.write_bytes(b"text_a\ttext_b\tlabel\n\xff\xfe\tx\tE\n")
        with pytest.raises(LabelledFileError, match="not UTF-8"):
            read_labelled_tsv(binary)

    def test_unknown_test_labels(self):
        with pytest.raises(LabelledFileError, match="line 3: label 'maybe' does not occur"):
            check_labels_known(["E", "maybe"], ("C", "E"), source="test.tsv")


class PredictionsTests:
    def test_one_label_per_line(self, tmp_path):
        path = tmp_path / "pred.txt"
        path.write_text(" E \r\nC\n")
        assert read_predictions(path, n_expected=2) == ("E", "C")
        assert parse_predictions("E\nC", n_expected=2) == ("E", "C")  # no final newline

    @pytest.mark.parametrize(
        ("text", "expected"),
        [("E\n", "1 prediction(s) for 2 test instance(s)"), ("E\n\nC\n", "line 2: empty line"),
         ("E\nC\nN\n", "3 prediction(s) for 2")],
    )
    def test_count_and_blank_lines(self, text, expected):
        with pytest.raises(LabelledFileError, match=expected.replace("(", r"\(").replace(")", r"\)")):
            parse_predictions(text, n_expected=2)


class TestPicks:
    def test_indices_with_crlf_and_spaces(self):
        assert parse_picks(" 0\r\n3\n1", n_expected=3, n_choices=4) == (0, 3, 1)

    @pytest.mark.parametrize("text, expected", [
        ("0\n4\n", "line 2: '4' is not an answer index"), ("0\n-1\n", "line 2: '-1' is not an answer index"),
        ("a\n1\n", "line 1: 'a' is not an answer index"), ("1.0\n1\n", "line 1: '1.0' is not an answer index"),
        ("0\n\n", "line 2: empty line"), ("0\n", "1 pick(s) for 2 test question(s)"),
        ("0\n1\n2\n", "3 pick(s) for 2 test question(s)"),
    ])
    def test_every_problem_named_with_its_line(self, text, expected):
        with pytest.raises(LabelledFileError, match=expected.replace("(", r"\(").replace(")", r"\)")) as caught:
            parse_picks(text, n_expected=2, n_choices=4, source="picks.txt")
        assert str(caught.value).startswith("picks.txt: ")
