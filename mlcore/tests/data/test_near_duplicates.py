"""mlcore.data.near_duplicates: lightly edited copies must be found; CODAH precision and recall.

The CODAH test builds a clean base (CODAH questions with no near-duplicate among them), makes
copies with each required edit (letter case, one inserted word, added punctuation, swapped
completions, and all four at once), indexes originals and copies together and checks that
every (original, copy) pair, and nothing else, is found. The numbers are printed (run with
``-s``) and quoted in docs/measured.md.
"""
import random

import pytest

from mlcore.data.codah import read_codah_file
from mlcore.data.near_duplicates import (
    DEFAULT_THRESHOLD,
    NearDuplicateIndex,
    find_near_duplicates,
    jaccard,
    precision_recall,
    question_shingles,
)
from mlcore.tests.shared_data import shared_data

PROMPT = "Tom forgot his umbrella on a rainy day. When he got home he"
CHOICES = ["was soaking wet.", "was completely dry.", "flew over the roof.", "ate the rain for dinner."]
FILLERS = ["really", "suddenly", "certainly", "quietly", "honestly", "apparently", "basically", "eventually"]


def change_case(prompt: str, choices: list[str], rng: random.Random) -> tuple[str, list[str]]:
    return prompt.upper() if rng.random() < 0.5 else prompt.lower(), [c.swapcase() for c in choices]


def insert_word(prompt: str, choices: list[str], rng: random.Random) -> tuple[str, list[str]]:
    words = prompt.split()
    present = question_shingles(prompt, choices)
    new = next(w for w in rng.sample(FILLERS, len(FILLERS)) if w not in present)
    words.insert(rng.randrange(len(words) + 1), new)
    return " ".join(words), list(choices)


def add_punctuation(prompt: str, choices: list[str], rng: random.Random) -> tuple[str, list[str]]:
    words = prompt.split()
    at = rng.randrange(len(words))
    words[at] += rng.choice([",", "!", "...", ";"])
    return " ".join(words) + "!", [c.rstrip(".") + "?!" for c in choices]


def swap_choices(prompt: str, choices: list[str], rng: random.Random) -> tuple[str, list[str]]:
    order = list(range(len(choices)))
    while order == sorted(order):
        rng.shuffle(order)
    return prompt, [choices[i] for i in order]


def all_edits(prompt: str, choices: list[str], rng: random.Random) -> tuple[str, list[str]]:
    for edit in (change_case, insert_word, add_punctuation, swap_choices):
        prompt, choices = edit(prompt, choices, rng)
    return prompt, choices


EDITS = {"case": change_case, "inserted word": insert_word, "punctuation": add_punctuation,
         "swapped completions": swap_choices, "all four": all_edits}


@pytest.mark.parametrize("edit", list(EDITS.values()), ids=list(EDITS))
def test_each_light_edit_is_found(edit):
    prompt, choices = edit(PROMPT, CHOICES, random.Random(0))
    index = NearDuplicateIndex().fit([1, 2], [PROMPT, "The cat sat on the mat. It"], [CHOICES, ["a", "b", "c", "d"]])
    matches = index.query(prompt, choices)
    assert [m.key for m in matches] == [1]
    assert matches[0].similarity >= DEFAULT_THRESHOLD


def test_case_punctuation_and_order_do_not_change_the_shingles():
    base = question_shingles(PROMPT, CHOICES)
    for edit in (change_case, add_punctuation, swap_choices):
        assert question_shingles(*edit(PROMPT, CHOICES, random.Random(1))) == base


def test_a_different_question_is_not_a_duplicate():
    other = ("Tom forgot his keys at work. When he got home he", ["could not open the door.", "cooked dinner.",
                                                                   "sang a song.", "flew away."])
    assert jaccard(question_shingles(PROMPT, CHOICES), question_shingles(*other)) < DEFAULT_THRESHOLD
    result = find_near_duplicates([1, 2], [PROMPT, other[0]], [CHOICES, other[1]])
    assert result.pairs == () and result.n_items == 2


def test_index_grows_and_excludes_keys():
    index = NearDuplicateIndex(threshold=0.9).fit([], [], [])
    index.add("a", PROMPT, CHOICES)
    assert [m.key for m in index.query(PROMPT, CHOICES)] == ["a"]
    assert index.query(PROMPT, CHOICES, exclude=["a"]) == ()
    index.add("b", *swap_choices(PROMPT, CHOICES, random.Random(0)))
    assert [m.key for m in index.query_key("a")] == ["b"]
    assert [(p.a, p.b, p.similarity) for p in index.pairs().pairs] == [("a", "b", 1.0)]
    with pytest.raises(ValueError, match="already indexed"):
        index.add("a", PROMPT, CHOICES)


def test_questions_without_words_match_nothing():
    index = NearDuplicateIndex().fit([1, 2], ["...", "?!"], [["-", "-", "-", "-"], ["!", "!", "!", "!"]])
    assert index.pairs().pairs == () and index.query("...", ["-"] * 4) == ()


@pytest.mark.parametrize("threshold", [0.0, 1.5, -1])
def test_threshold_must_be_a_fraction(threshold):
    with pytest.raises(ValueError, match="threshold"):
        NearDuplicateIndex(threshold=threshold).fit([1], ["a"], [["a", "b", "c", "d"]])


def test_keys_must_be_unique_and_aligned():
    with pytest.raises(ValueError, match="unique"):
        NearDuplicateIndex().fit([1, 1], ["a", "b"], [["a"] * 4, ["b"] * 4])
    with pytest.raises(ValueError, match="length"):
        NearDuplicateIndex().fit([1], ["a", "b"], [["a"] * 4])


def test_precision_recall_of_pairs():
    assert precision_recall([(1, 2), (3, 4)], [(2, 1), (5, 6)]) == (0.5, 0.5)


def test_codah_copies_are_found_with_full_precision_and_recall():
    examples = read_codah_file(shared_data("codah", "full_data.tsv"), max_prompt_chars=10_000, max_choice_chars=10_000,
                               allow_duplicate_choices=True).examples
    keys = list(range(len(examples)))
    natural = find_near_duplicates(keys, [e.prompt for e in examples], [e.choices for e in examples])
    # A clean base: drop the later question of every pair CODAH itself contains.
    dropped = {max(p.a, p.b) for p in natural.pairs}
    base = [i for i in keys if i not in dropped]
    rng = random.Random(0)
    originals = rng.sample(base, 500)
    items = {f"o{i}": (examples[i].prompt, list(examples[i].choices)) for i in base}
    true_pairs, kind_of = [], {}
    for n, i in enumerate(originals):
        kind = list(EDITS)[n % len(EDITS)]
        items[f"c{i}"] = EDITS[kind](examples[i].prompt, list(examples[i].choices), rng)
        true_pairs.append((f"o{i}", f"c{i}"))
        kind_of[frozenset((f"o{i}", f"c{i}"))] = kind
    result = find_near_duplicates(list(items), [p for p, _ in items.values()], [c for _, c in items.values()])
    found = [(p.a, p.b) for p in result.pairs]
    precision, recall = precision_recall(found, true_pairs)
    per_kind = {kind: sum(kind_of.get(frozenset(pair)) == kind for pair in found) for kind in EDITS}
    print(
        f"\nCODAH near-duplicates at threshold {DEFAULT_THRESHOLD}: {len(natural.pairs)} pairs among its "
        f"{len(examples)} questions; {len(base)} kept as a clean base; {len(true_pairs)} edited copies "
        f"({len(true_pairs) // len(EDITS)} per edit); found {len(found)} pairs after {result.n_candidates} "
        f"LSH candidates: precision {precision:.3f}, recall {recall:.3f}; found per edit {per_kind}"
    )
    assert recall == 1.0
    assert precision >= 0.99
    assert all(count == len(true_pairs) // len(EDITS) for count in per_kind.values())
