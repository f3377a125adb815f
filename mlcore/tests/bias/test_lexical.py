"""Tokens, features, z-scores and top-k selection (SPEC-bias §1; reference values R1-R7 of §7)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from mlcore.bias.lexical import encode_labels, lexical_features, lexical_tokens
from mlcore.bias.lexical_association import (
    bonferroni_z_threshold,
    lexical_zscores,
    select_top_features,
    zscores_from_counts,
)
from mlcore.bias.stopwords import NLTK_ENGLISH_STOPWORDS, STOP_WORDS

LABELS = ("E", "N", "C")

# SPEC §1.6 toy training set.
TOY_PREMISES = [
    "A man is sleeping.",
    "A cat sleeps outside.",
    "Two dogs run.",
    "A man plays outside.",
    "A woman sings.",
    "A man is sleeping.",
]
TOY_HYPOTHESES = [
    "Nobody is sleeping!",
    "The cat is outdoors.",
    "Nobody runs.",
    "A man is outdoors.",
    "The woman sings for her friends.",
    "A man sleeps on vacation.",
]
TOY_LABELS = ["C", "E", "C", "E", "N", "N"]


def toy_zscores(count: str = "instance"):
    features = lexical_features(TOY_PREMISES, TOY_HYPOTHESES, count=count)
    return lexical_zscores(features, TOY_LABELS, label_set=LABELS)


class TestTokens:
    def test_r1_reference_sentence(self):
        text = "Nobody's home -- the T-shirt, \"red\" & blue!"
        assert lexical_tokens(text) == ["nobodys", "home", "the", "tshirt", "red", "blue"]

    def test_symbols_and_digits_are_kept_punctuation_deleted(self):
        assert lexical_tokens("$5 + x<y = z^2 | ~a `b`") == ["$5", "+", "x<y", "=", "z^2", "|", "~a", "`b`"]
        assert lexical_tokens("50% a&b #tag *x* @me and/or back\\slash") == [
            "50", "ab", "tag", "x", "me", "andor", "backslash"
        ]

    def test_unicode_whitespace_and_punctuation(self):
        # ideographic space, no-break space; guillemets, inverted question mark, em dash
        assert lexical_tokens("«Hola»\u3000¿qué\xa0tal? a—b") == ["hola", "qué", "tal", "ab"]

    def test_pretokenized_snli_text(self):
        assert lexical_tokens("children 's soccer game . ") == ["children", "s", "soccer", "game"]

    def test_gardner_compat_mode(self):
        assert lexical_tokens("The T-shirt -- (red), ok", punct="gardner") == ["the", "t-shirt", "--", "red", "ok"]
        assert lexical_tokens("a ... b", punct="gardner") == ["a", "", "b"]  # empty tokens kept

    def test_unknown_punct_mode(self):
        with pytest.raises(ValueError):
            lexical_tokens("x", punct="ascii")


class TestStopWords:
    def test_r2_size_and_members(self):
        assert len(NLTK_ENGLISH_STOPWORDS) == 179
        assert len(STOP_WORDS) == 204
        assert {"dont", "youre", "don't", "shouldve", "thatll", "no", "not", "there"} <= STOP_WORDS
        assert not {"nobody", "near", "outside", "nothing", "someone"} & STOP_WORDS

    def test_section_1_5_evidence(self):
        # Words of the published SNLI top-50 lists must survive; NLTK's no/not/there must not.
        evidence = {"anything", "alone", "empty", "something", "together", "least", "first", "get", "show",
                    "using", "theres"}
        assert not evidence & STOP_WORDS
        assert {"no", "not", "there"} <= STOP_WORDS

    def test_appendix_a_list_and_its_stripped_forms(self):
        assert len(set(NLTK_ENGLISH_STOPWORDS)) == 179  # no duplicates
        assert NLTK_ENGLISH_STOPWORDS[:4] == ("i", "me", "my", "myself") and NLTK_ENGLISH_STOPWORDS[-1] == "wouldn't"
        stripped = STOP_WORDS - set(NLTK_ENGLISH_STOPWORDS)
        assert len(stripped) == 25 and len(STOP_WORDS) == 179 + 25
        contractions = {w.replace("'", "") for w in NLTK_ENGLISH_STOPWORDS if "'" in w}
        assert len(contractions) == 26 and stripped == contractions - {"its"}  # "it's" -> "its", already listed
        assert {"youve", "shes", "mightnt", "wouldnt"} <= stripped


class TestFeatures:
    def test_instance_is_union_of_segments(self):
        f = lexical_features(["A dog, a cat."], ["The dog sleeps."])
        assert f.vocabulary == ("a", "cat", "dog", "sleeps", "the")
        assert f.matrix.toarray().tolist() == [[1, 1, 1, 1, 1]]

    def test_token_counting_counts_every_occurrence(self):
        f = lexical_features(["A dog, a cat."], ["The dog sleeps."], count="token")
        assert dict(zip(f.vocabulary, f.matrix.toarray()[0].tolist())) == {
            "a": 2, "cat": 1, "dog": 2, "sleeps": 1, "the": 1
        }

    def test_bigrams_stay_inside_a_segment_and_skip_punctuation(self):
        f = lexical_features(["dog , cat"], ["bird"], ngram=2)
        assert f.vocabulary == (("dog", "cat"),)  # no (cat, bird) across the boundary

    def test_bigram_vocabulary_sorted_as_tuples(self):
        f = lexical_features(["b a", "a b", "a c"], ngram=2, count="token")
        assert f.vocabulary == (("a", "b"), ("a", "c"), ("b", "a"))
        assert f.matrix.toarray().tolist() == [[0, 0, 1], [1, 0, 0], [0, 1, 0]]

    def test_fixed_vocabulary_keeps_given_order_and_ignores_others(self):
        f = lexical_features(["nobody sleeps", "a dog"], vocabulary=["sleeps", "cat", "nobody"])
        assert f.vocabulary == ("sleeps", "cat", "nobody")
        assert f.matrix.toarray().tolist() == [[1, 0, 1], [0, 0, 0]]
        b = lexical_features(["a dog runs"], ngram=2, vocabulary=[("dog", "runs"), ("x", "y")])
        assert b.matrix.toarray().tolist() == [[1, 0]]

    def test_fast_corpus_path_matches_the_reference_tokenizer(self):
        rng = np.random.default_rng(0)
        alphabet = list("abcAB .,'-!?\t\n\u3000\xa0«»çÉ$%&\x00İ")
        firsts = ["".join(rng.choice(alphabet, size=rng.integers(0, 12))) for _ in range(300)]
        seconds = ["".join(rng.choice(alphabet, size=rng.integers(0, 12))) for _ in range(300)]
        for with_nul in (False, True):  # a NUL in the text switches to the per-segment path
            first = firsts if with_nul else [s.replace("\x00", "") for s in firsts]
            second = seconds if with_nul else [s.replace("\x00", "") for s in seconds]
            for ngram in (1, 2):
                f = lexical_features(first, second, ngram=ngram, count="token")
                expected = [_reference_features(a, b, ngram) for a, b in zip(first, second)]
                dense = f.matrix.toarray()
                got = [{f.vocabulary[j]: int(c) for j, c in enumerate(row) if c} for row in dense]
                assert got == expected

    def test_repeated_segments_are_expanded_in_place(self):
        premises = ["A dog runs.", "A cat sleeps.", "A dog runs.", "A dog runs."]
        hypotheses = ["An animal moves.", "A dog runs.", "Nobody runs.", "An animal moves."]
        for ngram in (1, 2):
            f = lexical_features(premises, hypotheses, ngram=ngram, count="token")
            got = [{f.vocabulary[j]: int(c) for j, c in enumerate(row) if c} for row in f.matrix.toarray()]
            assert got == [_reference_features(a, b, ngram) for a, b in zip(premises, hypotheses)]

    def test_gardner_features_keep_empty_token(self):
        f = lexical_features(["a -- b ."], punct="gardner")
        assert f.vocabulary == ("", "--", "a", "b")

    def test_length_mismatch(self):
        with pytest.raises(ValueError):
            lexical_features(["a"], ["b", "c"])

    def test_empty_input(self):
        f = lexical_features([], [])
        assert f.matrix.shape == (0, 0)


def _reference_features(first: str, second: str, ngram: int) -> dict:
    counts: dict = {}
    for segment in (first, second):
        tokens = lexical_tokens(segment)
        grams = tokens if ngram == 1 else list(zip(tokens, tokens[1:]))
        for g in grams:
            counts[g] = counts.get(g, 0) + 1
    return counts


class TestZScores:
    def test_r3_single_label_feature(self):
        z = zscores_from_counts(np.array([[0, 0, 2]]), 1 / 3)[0]  # columns E, N, C
        assert z == pytest.approx([-1.0, -1.0, 2.0], abs=1e-6)

    def test_r4_stop_word_a(self):
        z = zscores_from_counts(np.array([[2, 2, 1]]), 1 / 3)[0]
        assert z == pytest.approx([0.316228, 0.316228, -0.632456], abs=1e-6)

    @pytest.mark.parametrize(
        "word, n_w, counts, z",
        [
            ("nobody", 2, [0, 0, 2], [-1.0, -1.0, 2.0]),
            ("outdoors", 2, [2, 0, 0], [2.0, -1.0, -1.0]),
            ("outside", 2, [2, 0, 0], [2.0, -1.0, -1.0]),
            ("sleeping", 2, [0, 1, 1], [-1.0, 0.5, 0.5]),
            ("man", 3, [1, 1, 1], [0.0, 0.0, 0.0]),
            ("cat", 1, [1, 0, 0], [1.414214, -0.707107, -0.707107]),
            ("a", 5, [2, 2, 1], [0.316228, 0.316228, -0.632456]),
        ],
    )
    def test_section_1_6_table(self, word, n_w, counts, z):
        zs = toy_zscores()
        row = zs.row[word]
        assert zs.n[row] == n_w
        assert zs.counts[row].tolist() == counts
        assert zs.statistic[row] == pytest.approx(z, abs=1e-6)
        assert zs.p_label[row] == pytest.approx(np.array(counts) / n_w)

    def test_r5_sleeping_instance_vs_token_counting(self):
        assert toy_zscores("instance").zscore("sleeping", "C") == pytest.approx(0.5, abs=1e-6)
        token = toy_zscores("token")
        assert token.zscore("sleeping", "C") == pytest.approx(1.224745, abs=1e-6)
        assert token.zscore("sleeping", "N") == pytest.approx(0.0, abs=1e-12)

    def test_single_label_feature_formula(self):
        for n_labels in (2, 3, 5):
            for n_w in (1, 2, 7):
                z = zscores_from_counts(np.array([[n_w] + [0] * (n_labels - 1)]), 1 / n_labels)[0]
                assert z[0] == pytest.approx(math.sqrt(n_w * (n_labels - 1)))
                assert z[1:] == pytest.approx(-math.sqrt(n_w / (n_labels - 1)))

    def test_prior_null(self):
        f = lexical_features(["x", "x", "y", "y", "y"])
        zs = lexical_zscores(f, ["A", "B", "B", "B", "B"], label_set=("A", "B"), p0="prior")
        assert zs.p0 == pytest.approx([0.2, 0.8])
        expected = (0.5 - 0.2) / math.sqrt(0.2 * 0.8 / 2)
        assert zs.zscore("x", "A") == pytest.approx(expected)
        # a declared label absent from training has prior 0: its z-scores are undefined
        zs = lexical_zscores(f, ["A", "B", "B", "B", "B"], label_set=("A", "B", "C"), p0="prior")
        assert np.isnan(zs.statistic[:, 2]).all()

    def test_pvalue_is_one_sided_normal_tail(self):
        zs = toy_zscores()
        assert zs.pvalue[zs.row["nobody"], 2] == pytest.approx(0.022750131948179195)
        assert np.array_equal(zs.log10_pvalue, np.log10(zs.pvalue))  # SPEC §0 twin, no underflow here

    def test_log10_pvalue_stays_finite_when_pvalue_underflows(self):
        f = lexical_features(["w"] * 10_000 + ["x"])
        zs = lexical_zscores(f, ["C"] * 10_000 + ["E"], label_set=LABELS)
        z = zs.zscore("w", "C")
        assert z == pytest.approx(math.sqrt(20_000)) and zs.pvalue[zs.row["w"], 2] == 0.0
        with mpmath.workdps(50):
            reference = float(mpmath.log10(mpmath.erfc(mpmath.sqrt(20_000) / mpmath.sqrt(2)) / 2))
        assert zs.log10_pvalue[zs.row["w"], 2] == pytest.approx(reference, rel=1e-12)  # ≈ -4346.5
        prior = lexical_zscores(f, ["C"] * 10_000 + ["E"], label_set=LABELS, p0="prior")
        assert np.isnan(prior.log10_pvalue[:, 1]).all()  # N never occurs: z and p undefined

    def test_r7_bonferroni_threshold(self):
        assert bonferroni_z_threshold(0.01, 28_000) == pytest.approx(4.957439, abs=1e-6)
        assert not toy_zscores().significant(0.01).any()

    def test_label_validation(self):
        f = lexical_features(["x", "y"])
        with pytest.raises(ValueError, match="at least 2"):
            lexical_zscores(f, ["A", "A"], label_set=("A",))
        with pytest.raises(ValueError, match="outside the label set"):
            lexical_zscores(f, ["A", "Z"], label_set=("A", "B"))
        with pytest.raises(ValueError, match="duplicates"):
            lexical_zscores(f, ["A", "B"], label_set=("A", "B", "A"))
        with pytest.raises(ValueError):
            lexical_zscores(f, ["A"], label_set=("A", "B"))
        with pytest.raises(ValueError):
            lexical_zscores(f, ["A", "B"], label_set=("A", "B"), p0="flat")
        assert encode_labels(["B", "?"], ("A", "B"), unknown=-1).tolist() == [1, -1]


class TestSelection:
    def test_r6_top_two_per_label(self):
        s = select_top_features(toy_zscores(), k=2)
        assert dict(s.per_label) == {"E": ("outdoors", "outside"), "N": ("friends", "sings"), "C": ("nobody", "dogs")}
        assert s.features == ("dogs", "friends", "nobody", "outdoors", "outside", "sings")
        assert s.selected_for["nobody"] == ("C",)

    def test_stop_words_excluded_and_equal_z_broken_by_count(self):
        # "a" (stop word) has the largest z for E. "zz" (16 of 36 E) and "bb" (1 of 1 E) have
        # the same z_E = sqrt(2) in exact arithmetic but not in float64 (bb's is 1 ulp larger);
        # the tie must still be broken by the larger n_w.
        texts = ["a zz"] * 16 + ["zz"] * 20 + ["a bb"]
        labels = ["E"] * 16 + ["N"] * 10 + ["C"] * 10 + ["E"]
        zs = lexical_zscores(lexical_features(texts), labels, label_set=LABELS)
        assert zs.zscore("zz", "E") == pytest.approx(math.sqrt(2))
        assert zs.zscore("bb", "E") == pytest.approx(math.sqrt(2))
        s = select_top_features(zs, k=3)
        assert s.per_label["E"] == ("zz", "bb")
        assert "a" not in s.features
        assert select_top_features(zs, k=3, stop_words=()).per_label["E"] == ("a", "zz", "bb")

    def test_feature_selected_for_two_labels_is_listed_once(self):
        s = select_top_features(toy_zscores(), k=50)
        assert s.selected_for["sleeping"] == ("N", "C")
        assert s.features.count("sleeping") == 1
        assert len(s.features) == len(set(s.features))

    def test_nonpositive_z_is_never_selected_and_min_count(self):
        s = select_top_features(toy_zscores(), k=50)
        assert "man" not in s.features  # z = 0 for every label
        assert len(s.per_label["E"]) < 50
        s = select_top_features(toy_zscores(), k=50, min_count=2)
        assert set(s.features) == {"nobody", "outdoors", "outside", "sleeping", "sleeps"}

    def test_default_k_is_50(self):
        # 60 single-instance E words (z_E = sqrt(2) each, equal n): the first 50 in string order.
        words = [f"w{i:02d}" for i in range(60)]
        zs = lexical_zscores(lexical_features([*words, "n", "c"]), ["E"] * 60 + ["N", "C"], label_set=LABELS)
        s = select_top_features(zs)
        assert s.k == 50 and s.per_label["E"] == tuple(words[:50])

    def test_argument_validation(self):
        with pytest.raises(ValueError):
            select_top_features(toy_zscores(), k=0)
        with pytest.raises(ValueError):
            select_top_features(toy_zscores(), min_count=0)
