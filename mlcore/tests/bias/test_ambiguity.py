"""Tests for mlcore.bias.ambiguity: SPEC-bias §4 and reference values R16–R20."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
from scipy import stats

from mlcore.bias.ambiguity import (
    GOF_CAVEAT,
    AmbiguityOption,
    AmbiguityQuestion,
    OccupationCounts,
    gender_goodness_of_fit,
    name_retrieved,
    parse_ambiguity_jsonl,
    passage_groups,
    read_ambiguity_jsonl,
    read_unqover_occupations,
    read_unqover_subjects,
    recall_independence_test,
    retrieval_ambiguity,
    selectional_recall,
    upstream_name_tokens,
)
from mlcore.bias.gender import answer_gender, best_reader_answer, reader_propagation
from mlcore.tests.shared_data import TOL, shared_data


# --------------------------------------------------------------------------- R16
def _check_r16(test) -> None:  # type: ignore[no-untyped-def]
    assert test.statistic == pytest.approx(0.561104, abs=TOL)
    assert test.pvalue == pytest.approx(0.453816, abs=TOL)
    assert test.log10_pvalue == math.log10(test.pvalue)  # SPEC §0: the p-value's log10 twin
    assert test.log10_pvalue == pytest.approx(math.log10(0.453816), abs=TOL)
    assert test.dof == 1
    assert np.allclose(test.expected, [[66.5, 33.5], [66.5, 33.5]], rtol=0, atol=TOL)
    # The Yates-corrected values must NOT be what we return.
    assert abs(test.statistic - 0.359107) > 0.1 and abs(test.pvalue - 0.549003) > 0.05
    assert not test.degenerate and not test.small_expected and test.fisher_pvalue is None
    assert test.fisher_log10_pvalue is None


def test_r16_chi_squared_without_yates() -> None:
    _check_r16(recall_independence_test([69, 64], [100, 100]))


def test_r16_through_selectional_recall() -> None:
    questions, preds = [], {}
    for i in range(100):
        male, female = f"Mfirst{i} Mlast{i}", f"Ffirst{i} Flast{i}"
        questions.append(AmbiguityQuestion(i, f"law {i}", f"Who discovered the law {i}", "",
                                           (AmbiguityOption(male, "male"), AmbiguityOption(female, "female"))))
        preds[i] = " and ".join(([male] if i < 69 else []) + ([female] if i < 64 else []))
    r = selectional_recall(questions, preds)
    assert r.groups == ("female", "male") and r.mentions == (100, 100) and r.retrieved == (64, 69)
    assert r.recall_of("male") == 0.69 and r.recall_of("female") == 0.64
    _check_r16(r.test)
    assert (r.statistic, r.pvalue, r.log10_pvalue) == (r.test.statistic, r.test.pvalue, r.test.log10_pvalue)
    ci = r.confidence_interval("male")
    assert ci.low < 0.69 < ci.high


def test_small_and_degenerate_tables() -> None:
    small = recall_independence_test([3, 1], [4, 4])
    assert small.small_expected and not small.degenerate
    assert small.fisher_pvalue == pytest.approx(stats.fisher_exact([[3, 1], [1, 3]]).pvalue)
    assert small.fisher_log10_pvalue == math.log10(small.fisher_pvalue)
    three = recall_independence_test([3, 1, 2], [4, 4, 4])
    assert three.small_expected and three.fisher_pvalue is None and three.dof == 2
    for test in (recall_independence_test([5, 7], [5, 7]), recall_independence_test([0, 0], [5, 7]),
                 recall_independence_test([5], [9])):
        assert (test.statistic, test.pvalue, test.log10_pvalue, test.degenerate) == (0.0, 1.0, 0.0, True)
    with pytest.raises(ValueError, match="retrieved <= mentions"):
        recall_independence_test([6], [5])
    with pytest.raises(ValueError, match="equal-length"):
        recall_independence_test([1, 2], [3])


# --------------------------------------------------------------------------- R20
def test_r20_recall_matching() -> None:
    assert name_retrieved("Judy H. Autler", "Autler") is False  # 1 of 3 tokens < ceil(1.5) = 2
    assert name_retrieved("Judy H. Autler", "Autler", match="any_token") is True
    assert name_retrieved("Judy H. Autler", "judy autler!") is True
    assert name_retrieved("Judy H. Autler", "") is False
    assert name_retrieved("Judy H. Autler", "", match="any_token") is False


def test_any_token_splits_hyphenated_names_as_upstream_does() -> None:
    # The Arndt-Eistert synthesis: upstream's spaCy tokenizer splits the hyphen, so both gold names
    # share a token with the answer; deleting the hyphen ("arndteistert") matched neither.
    gold = ("Fritz Arndt", "Bernd Eistert")
    assert [name_retrieved(g, "Arndt-Eistert", match="any_token") for g in gold] == [True, True]
    assert [name_retrieved(g, "Arndt-Eistert") for g in gold] == [False, False]  # §1.1 in "fraction" (SPEC)
    # A hyphenated gold name too, and other dashes spaCy splits at.
    assert name_retrieved("Jean-Baptiste Biot", "Jean", match="any_token")
    assert name_retrieved("Jean-Baptiste Biot", "Baptiste\u2013Savart", match="any_token")
    assert name_retrieved("Ann Lee", "Lee/Smith", match="any_token")
    # A shared "-" is not a shared name (upstream counted it: a bug not copied); "H." is the token "h".
    assert not name_retrieved("Jean-Baptiste Biot", "Arndt-Eistert", match="any_token")
    assert name_retrieved("Judy H. Autler", "H.", match="any_token")
    # Not split where spaCy does not split: an apostrophe, a hyphen before a digit.
    assert upstream_name_tokens("O'Neil-Smith x-1") == ["oneil", "smith", "x1"]


def test_recall_threshold_is_exact_for_awkward_floats() -> None:
    name = " ".join(f"t{i}" for i in range(10))
    assert name_retrieved(name, " ".join(f"t{i}" for i in range(7)), tau=0.7)  # 0.7*10 = 7.000000000000001
    assert not name_retrieved(name, " ".join(f"t{i}" for i in range(6)), tau=0.7)
    for bad in ({"tau": 0.0}, {"tau": 1.5}, {"match": "all"}):
        with pytest.raises(ValueError):
            name_retrieved("A B", "A", **bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no tokens"):
        name_retrieved("--", "A")


# --------------------------------------------------------------------------- R17–R19
def test_r17_goodness_of_fit() -> None:
    r = gender_goodness_of_fit(900, 100)
    assert r.expected == pytest.approx((830.0, 170.0))
    assert r.statistic == pytest.approx(34.727144, abs=TOL)
    assert r.pvalue == pytest.approx(3.7931e-09, rel=2e-5)  # five significant digits
    assert r.log10_pvalue == math.log10(r.pvalue)
    assert r.log10_pvalue == pytest.approx(math.log10(3.7931e-09), abs=1e-5)
    assert r.female_share == pytest.approx(0.1) and r.dof == 1 and not r.degenerate
    ci = r.confidence_interval()
    assert ci.high < 0.17  # the share of women is significantly below the baseline


def test_r18_reader_counts() -> None:
    r = gender_goodness_of_fit(52, 6)
    assert r.expected == pytest.approx((48.14, 9.86), abs=TOL)
    assert r.statistic == pytest.approx(1.820621, abs=TOL)
    assert r.pvalue == pytest.approx(0.177239, abs=TOL)
    assert r.female_share == pytest.approx(0.103448, abs=TOL)
    prop = reader_propagation(["male"] * 52 + ["female"] * 6 + ["neutral"] * 10 + ["unknown"] * 2)
    assert (prop.observed, prop.n_unknown) == ((52, 6), 12)
    assert prop.statistic == pytest.approx(1.820621, abs=TOL) and prop.pvalue == pytest.approx(0.177239, abs=TOL)
    with pytest.raises(ValueError, match="unknown answer groups"):
        reader_propagation(["male", "woman"])


def test_goodness_of_fit_edge_cases() -> None:
    empty = gender_goodness_of_fit(0, 0, n_unknown=4)
    assert empty.degenerate and empty.statistic != empty.statistic and empty.n_unknown == 4  # nan
    assert math.isnan(empty.pvalue) and math.isnan(empty.log10_pvalue)
    for pi in (0.0, 1.0, -0.1):
        with pytest.raises(ValueError, match="baseline_female_share"):
            gender_goodness_of_fit(5, 5, baseline_female_share=pi)
    with pytest.raises(ValueError, match="non-negative"):
        gender_goodness_of_fit(-1, 5)


def _log10_chi2_dof1_sf(x: Fraction) -> float:
    """High-precision ``log10 P(chi2_1 >= x) = log10 erfc(sqrt(x / 2))`` for an exact statistic."""
    with mpmath.workdps(50):
        x_mp = mpmath.mpf(x.numerator) / x.denominator
        return float(mpmath.log10(mpmath.erfc(mpmath.sqrt(x_mp / 2))))


def _pearson(observed: list[list[int]], expected: list[list[Fraction]]) -> Fraction:
    return sum(((o - e) ** 2 / e for ro, re in zip(observed, expected) for o, e in zip(ro, re)), Fraction(0))


def test_goodness_of_fit_on_a_huge_pool_underflows_but_log10_does_not() -> None:
    r = gender_goodness_of_fit(900_000, 100_000)  # R17 with every count x 1000
    exact = _pearson([[900_000, 100_000]], [[Fraction(830_000), Fraction(170_000)]])
    assert r.statistic == pytest.approx(float(exact), rel=1e-14) and r.pvalue == 0.0
    assert math.isfinite(r.log10_pvalue)
    assert r.log10_pvalue == pytest.approx(_log10_chi2_dof1_sf(exact), rel=1e-12)  # ≈ -7543.27
    pooled = retrieval_ambiguity({"x": ["male"] * 900 + ["female"] * 100}, k=1000)
    assert pooled.log10_pvalue == pooled.fit.log10_pvalue == gender_goodness_of_fit(900, 100).log10_pvalue


def test_chi_squared_on_huge_tables_underflows_but_log10_does_not() -> None:
    two = recall_independence_test([900_000, 100_000], [1_000_000, 1_000_000])
    exact = Fraction(2_000_000 * (900_000**2 - 100_000**2) ** 2, 10**24)  # N (ad - bc)^2 / (r1 r2 c1 c2)
    assert two.statistic == pytest.approx(float(exact), rel=1e-12) and two.pvalue == 0.0
    assert two.log10_pvalue == pytest.approx(_log10_chi2_dof1_sf(exact), rel=1e-12)
    # Three groups, dof 2, where the tail is exactly exp(-x / 2).
    hits, totals = [9000, 1000, 5000], [10_000] * 3
    found = Fraction(sum(hits), sum(totals))
    expected = [[t * found, t * (1 - found)] for t in totals]
    exact = _pearson([[h, t - h] for h, t in zip(hits, totals)], expected)
    three = recall_independence_test(hits, totals)
    assert three.dof == 2 and three.pvalue == 0.0
    assert three.log10_pvalue == pytest.approx(-float(exact) / 2 / math.log(10), rel=1e-12)


def test_fisher_on_a_huge_table_underflows_but_log10_does_not() -> None:
    # Group A: 0 of 200 found; group B: every one of 10**6. Expected missed in A: 0.04 < 5.
    test = recall_independence_test([0, 1_000_000], [200, 1_000_000])
    assert test.small_expected and test.fisher_pvalue == 0.0 and test.pvalue == 0.0
    # The observed table is the only one this extreme: p = 1 / C(1 000 200, 200).
    assert test.fisher_log10_pvalue == pytest.approx(-math.log10(math.comb(1_000_200, 200)), rel=1e-12)
    assert math.isfinite(test.log10_pvalue)


def test_r19_disparity() -> None:
    row = OccupationCounts("x", female=30, male=60, unknown=10)
    assert row.disparity == -30
    assert row.excess() == pytest.approx(14.7, abs=TOL)
    r = retrieval_ambiguity({"x": ["female"] * 30 + ["male"] * 60 + ["unknown"] * 10})
    assert r.occupations == (row,) and r.fit.n_unknown == 10 and r.fit.observed == (60, 30)


def test_retrieval_ambiguity_counts_ranking_and_fit() -> None:
    groups = {
        "nurse": ["female"] * 6 + ["male"] * 2 + ["unknown"] * 2,
        "dancer": ["female"] * 5 + ["male"] * 1 + ["unknown"] * 4,  # same D as nurse, fewer passages
        "astronaut": ["male"] * 9 + ["female"],
        "pilot": ["male"] * 7 + ["unknown"] * 3 + ["female"] * 50,  # female tail beyond k is ignored
    }
    r = retrieval_ambiguity(groups, k=10, lookup="wikidata P21")
    assert [o.occupation for o in r.occupations] == ["nurse", "dancer", "pilot", "astronaut"]
    assert [o.disparity for o in r.occupations] == [4, 4, -7, -8]
    assert [o.occupation for o in r.highest(2)] == ["nurse", "dancer"]
    assert [o.occupation for o in r.lowest(2)] == ["astronaut", "pilot"] and r.lowest(0) == ()
    assert r.fit.observed == (19, 12) and r.fit.n_unknown == 9 and r.fit.caveat == GOF_CAVEAT
    assert r.statistic == gender_goodness_of_fit(19, 12).statistic and r.lookup == "wikidata P21"
    with pytest.raises(ValueError, match="unknown passage groups"):
        retrieval_ambiguity({"x": ["man"]})
    with pytest.raises(ValueError, match="k must"):
        retrieval_ambiguity({"x": ["male"]}, k=0)
    assert passage_groups(["Ada Lovelace", "Paris"], {"Ada Lovelace": "female"}) == ("female", "unknown")


def test_eight_most_female_and_most_male_occupations_by_default() -> None:
    # SPEC §4.2: "the 8 lowest/highest"; occupation i has D = 2i - 19, all distinct.
    r = retrieval_ambiguity({f"occ{i:02d}": ["female"] * i + ["male"] * (19 - i) for i in range(20)}, k=19)
    assert [o.occupation for o in r.highest()] == [f"occ{i:02d}" for i in range(19, 11, -1)]
    assert [o.occupation for o in r.lowest()] == [f"occ{i:02d}" for i in range(8)]


def test_reader_helpers() -> None:
    assert best_reader_answer([("Ann", 0.2), ("Bob", 0.9), ("Cy", 0.9)]) == "Bob"
    with pytest.raises(ValueError):
        best_reader_answer([])
    lexicon = {"mary": "female", "james": "male"}
    assert answer_gender("Dr. Mary Smith", lexicon) == "female"
    assert answer_gender("the engineer", lexicon) == "neutral"


# --------------------------------------------------------------------------- readers
def test_parse_ambiguity_jsonl_errors() -> None:
    good = ('{"id": 1, "name": "X", "question": "Who discovered the X", "context": "c", '
            '"options": [{"name": "Ann Lee", "gender": "female"}]}')
    (q,) = parse_ambiguity_jsonl(good + "\n\n")
    assert q.options == (AmbiguityOption("Ann Lee", "female", "unknown", "unknown"),)
    with pytest.raises(ValueError, match="line 2: duplicate id 1"):
        parse_ambiguity_jsonl(good + "\n" + good)
    with pytest.raises(ValueError, match="line 1: not an ambiguity record"):
        parse_ambiguity_jsonl('{"id": 1}')
    with pytest.raises(ValueError, match="line 1: every question"):
        parse_ambiguity_jsonl(good.replace('"Ann Lee"', '"--"'))
    with pytest.raises(ValueError, match="no prediction for question 1"):
        selectional_recall([q], {})
    with pytest.raises(ValueError, match="attribute"):
        selectional_recall([q], {1: ""}, attribute="age")  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def eponyms() -> tuple[AmbiguityQuestion, ...]:
    return read_ambiguity_jsonl(shared_data("ambiguity", "doubly_eponymous.json_gender_balanced.bert"))


def test_read_ambiguity_file_matches_provenance(eponyms: tuple[AmbiguityQuestion, ...]) -> None:
    assert len(eponyms) == 263 and sorted(q.id for q in eponyms) == list(range(1, 264))
    assert Counter(len(q.options) for q in eponyms) == {1: 6, 2: 229, 3: 23, 4: 4, 5: 1}
    assert Counter(o.gender for q in eponyms for o in q.options) == {"male": 281, "female": 273}
    first = eponyms[0]
    assert first.question == "Who discovered the Biot-Savart law"
    assert first.options[1] == AmbiguityOption("Betty Savart", "female", "France", "unknown")


def test_selectional_recall_on_real_questions(eponyms: tuple[AmbiguityQuestion, ...]) -> None:
    oracle = selectional_recall(eponyms, {str(q.id): " ".join(o.name for o in q.options) for q in eponyms})
    assert oracle.recall == (1.0, 1.0) and oracle.test.degenerate  # nothing missed: expected count 0
    first_only = selectional_recall(eponyms, {q.id: q.options[0].name for q in eponyms})
    assert first_only.mentions == (273, 281)
    assert first_only.retrieved[0] + first_only.retrieved[1] >= 263  # every first option is found
    by_nation = selectional_recall(eponyms, {q.id: "" for q in eponyms}, attribute="nationality")
    assert by_nation.mentions[by_nation.groups.index("unknown")] == 168 and set(by_nation.recall) == {0.0}


def test_read_unqover_word_lists() -> None:
    lists = shared_data("unqover", "word_lists")
    occupations = read_unqover_occupations(lists / "activities" / "occupation_rev1")
    assert len(occupations) == 70
    assert occupations[0].occupation == "accountant" and occupations[0].question == "Who was an accountant?"
    assert occupations[0].negated == "can never be an accountant"
    assert "film director" in {o.occupation for o in occupations}
    female = read_unqover_subjects(lists / "nouns" / "subjects" / "female")
    male = read_unqover_subjects(lists / "nouns" / "subjects" / "male")
    assert (len(female), len(male)) == (70, 70)
    assert female[0].name == "Mary" and {s.group for s in female} == {"female"}
    assert {s.group for s in male} == {"male"}
    assert len(read_unqover_subjects(lists / "nouns" / "subjects" / "female_bert")) == 50
    lexicon = {s.name.lower(): s.group for s in female + male}
    assert answer_gender("James Watt", lexicon) == "male"


def test_unqover_reader_rejects_bad_files(tmp_path: Path) -> None:
    bad = tmp_path / "occ"
    bad.write_text("[p_act] was a nurse\n[p_act] was a pilot\n[p_act:neg] can never be a pilot\n"
                   "[p_act:neg] can never be a nurse\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 3: this \[p_act:neg\] line should end with 'nurse' \(line 1\)"):
        read_unqover_occupations(bad)
    bad.write_text("[subj] female Mary\n", encoding="utf-8")
    with pytest.raises(ValueError, match="expected"):
        read_unqover_subjects(bad)


def test_name_tokens_match_spec_tokenizer() -> None:
    # ambiguity keeps a private copy of the §1.1 tokenizer; it must equal mlcore.bias.lexical's (R1).
    from mlcore.bias.ambiguity import _tokens

    text = "Nobody's home -- the T-shirt, \"red\" & blue!"
    assert _tokens(text) == ["nobodys", "home", "the", "tshirt", "red", "blue"]
    lexical = pytest.importorskip("mlcore.bias.lexical")
    for sample in (text, "Judy H. Autler", "Jean-Baptiste Biot «x» $5+3 O'Neil"):
        assert _tokens(sample) == lexical.lexical_tokens(sample)
