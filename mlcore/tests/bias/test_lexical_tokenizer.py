"""The compiled corpus tokenizer must split exactly like ``lexical_tokens`` (SPEC §1.1), token by
token, for every token length, alphabet and odd character, and fall back cleanly when it cannot."""

import numpy as np
import pytest

from mlcore.bias import lexical_tokenizer
from mlcore.bias.lexical import _punctuation_table, lexical_features, lexical_tokens
from mlcore.bias.lexical_tokenizer import corpus_token_ids, factorize_u64


def tokens_of(segments):
    ids, segment, vocab = corpus_token_ids(segments, _punctuation_table)
    out = [[] for _ in segments]
    for token_id, s in zip(ids.tolist(), segment.tolist()):
        out[s].append(vocab[token_id])
    return out, vocab


def check(segments):
    got, vocab = tokens_of(segments)
    assert got == [lexical_tokens(s) for s in segments]
    assert vocab == sorted(set(vocab)) == sorted({t for s in segments for t in lexical_tokens(s)})


class CorpusTokenIdsTests:
    def test_short_and_long_tokens(self):
        words = ["a", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmnop", "abcdefghijklmnopq",
                 "abcdefghijklmnopqrstuvwxyz0123456789", "abcdefgh0", "abcdefgh00", "ABCDEFGHI"]
        check([" ".join(words), " ".join(reversed(words)), "abcdefghi abcdefgh", ""])

    def test_multibyte_characters_at_key_boundaries(self):
        # "é" is 2 bytes, "界" 3, an emoji 4: split across the 8th/16th byte they must still round-trip.
        check(["aaaaaaaé bbbbbbb界 cccccccccccccc😀 é界😀 ÉCOLE Straße İstanbul", "x 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ﬁne"])

    def test_whitespace_punctuation_and_control_characters(self):
        check(["a\tb\nc\x0bd\x0ce\rf\x1cg\x1dh\x1ei\x1fj", "x\x01y z\x7f", "«quoted» — dash, t-shirt's",
               "no\u00a0break\u3000ideographic\u2028line\x85next", "   ", "$5 + x<y ^2 | ~a `b`"])

    def test_random_corpora(self):
        rng = np.random.default_rng(1)
        alphabet = list("abcXYZ019 .,;:'\"-!?\t\n«»çÉ界😀$%&\x01İ") + ["abcdefghijklmnopqrs", "ABCDEFGH"]
        for _ in range(20):
            check(["".join(rng.choice(alphabet, size=rng.integers(0, 30))) for _ in range(200)])

    def test_ascii_and_non_ascii_blocks_mix(self, monkeypatch):
        monkeypatch.setattr(lexical_tokenizer, "_BLOCK", 3)
        check(["plain text", "more, plain!", "Ünïcode here", "x", "ascii again", "déjà vu", "end."])

    def test_nul_inside_a_text_is_left_to_the_caller(self):
        assert corpus_token_ids(["a\x00b", "c"], _punctuation_table) is None
        # lexical_features then tokenizes text by text: "a\x00b" is one token, as str.split() says.
        assert lexical_features(["a\x00b", "c"]).vocabulary == ("a\x00b", "c")

    def test_empty(self):
        ids, segment, vocab = corpus_token_ids([], _punctuation_table)
        assert ids.size == segment.size == 0 and vocab == []
        check(["", "", "..."])

    def test_every_token_in_one_probe_chain(self, monkeypatch):
        # A zero multiplier sends every token to slot 0: lookups must compare bytes and lengths
        # along the chain (prefixes of each other included), never trust the slot.
        monkeypatch.setattr(lexical_tokenizer, "_GOLDEN", np.uint64(0))
        check(["abcdefgh1 abcdefgh2 abcdefgh33 abcdefgh1 abcdefgh", "abcdefgh2 zz a ab abc ab a"])

    def test_table_and_token_arrays_grow_while_scanning(self, monkeypatch):
        # A 4-slot table, room for 2 tokens and 8 bytes must all be regrown many times, across
        # chunk buffers, keeping every id already handed out.
        for name, value in (("_FIRST_TABLE_BITS", 2), ("_FIRST_CAPACITY", 2), ("_FIRST_ARENA", 8), ("_CHUNK", 3)):
            monkeypatch.setattr(lexical_tokenizer, name, value)
        words = [f"w{i}" for i in range(300)] + ["a" * 40, "b" * 9, "ü" * 30]
        check([" ".join(words[i::7]) for i in range(7)] + [" ".join(reversed(words)), "", "a" * 40])


class FactorizeTests:
    @pytest.mark.parametrize("n_distinct", [1, 7, 1000, 50_000])
    def test_matches_numpy_unique(self, n_distinct):
        rng = np.random.default_rng(n_distinct)
        values = rng.integers(0, 2**63, size=n_distinct, dtype=np.uint64)
        keys = values[rng.integers(0, n_distinct, size=200_000)]
        uniques, inverse = factorize_u64(keys)
        expected_uniques, expected_inverse = np.unique(keys, return_inverse=True)
        assert np.array_equal(uniques, expected_uniques) and np.array_equal(inverse, expected_inverse.ravel())

    def test_keys_that_share_a_slot(self):
        # Keys differing only in their low bits land in neighbouring slots and must probe on.
        keys = np.arange(0, 64, dtype=np.uint64) << np.uint64(59)
        uniques, inverse = factorize_u64(np.concatenate([keys, keys[::-1]]))
        assert np.array_equal(uniques[inverse], np.concatenate([keys, keys[::-1]]))

    def test_empty(self):
        uniques, inverse = factorize_u64(np.zeros(0, np.uint64))
        assert uniques.size == 0 and inverse.size == 0


def test_segment_numbers_skip_empty_segments():
    ids, segment, vocab = corpus_token_ids(["", "b a", "", "", "a"], _punctuation_table)
    assert vocab == ["a", "b"] and ids.tolist() == [1, 0, 0] and segment.tolist() == [1, 1, 4]
    assert corpus_token_ids(["ok", "fine", "a", "b", "bad\x00text", "c"], _punctuation_table) is None


def test_parts_tokenized_in_threads_merge_into_one_vocabulary(monkeypatch):
    from mlcore import threads

    monkeypatch.setattr(threads, "MAX_THREADS", 3)
    monkeypatch.setattr(lexical_tokenizer, "_MIN_PART", 2)
    check(["b a", "c", "zeta alpha", "", "a b c", "new words here", "Zeta!", "abcdefghijklmnopqrstu x", "y"])
    assert corpus_token_ids(["ok", "fine", "a", "b", "bad\x00text", "c"], _punctuation_table) is None
