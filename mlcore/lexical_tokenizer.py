"""Vectorised SPEC-bias §1.1 tokenisation of a whole corpus (the speed path of :mod:`mlcore.lexical`).

:func:`corpus_token_ids` returns, for a list of segments, the id of every token in a sorted
vocabulary and the segment it came from, exactly as ``lexical_tokens`` would split each segment,
without creating a Python object per token:

1. Segments are joined with NUL into one byte string. ASCII blocks are lower-cased and stripped
   of punctuation by ``bytes.lower``/``bytes.translate`` (all ASCII whitespace becomes a space);
   blocks with other characters go through ``str.lower``/``str.translate`` with the Unicode
   punctuation table and ``str.split``, then UTF-8.
2. numpy finds token boundaries (any byte but space and NUL is a token byte) and the segment
   of each token.
3. Each token of at most 16 bytes becomes one or two 64-bit keys read straight out of the
   buffer (zero-padded: UTF-8 text has no zero bytes, so the key is the token); longer
   tokens (rare) are decoded one by one. Keys are factorised by one sort of the keys plus a
   vectorised open-addressing hash table, and only the distinct tokens are decoded and sorted
   as Python strings (code-point order, SPEC §0).

A segment containing NUL (which is neither whitespace nor punctuation, so part of a token) is
left to the caller's per-segment path: :func:`corpus_token_ids` returns ``None`` then.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

import numpy as np

__all__ = ["corpus_token_ids", "factorize_u64"]

_BLOCK = 4096  # segments per join/translate call when a chunk has non-ASCII text
_CHUNK = 32768  # segments tokenized together (see corpus_token_ids)
_PAD = 24  # zero bytes after the buffer, so an 8-byte read at any token start stays inside it
_ASCII_WHITESPACE = b"\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"  # what str.split() splits on, besides space
_ASCII_DELETE = bytes(c for c in range(128) if unicodedata.category(chr(c)).startswith("P"))
# ASCII whitespace -> space and upper case -> lower case in one translate pass.
_ASCII_TABLE = bytes(32 if c in _ASCII_WHITESPACE else c + 32 if 65 <= c <= 90 else c for c in range(256))
# _MASK[n] keeps the first n bytes of a little-endian word (its n low-order bytes), n = 0..8.
_MASK = np.array([(1 << (8 * n)) - 1 for n in range(9)], dtype=np.uint64)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_CONTROL = bytes(range(33))  # NUL, the control characters and space


def factorize_u64(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct values of a uint64 array and the position of every key among them.

    ``np.unique(keys, return_inverse=True)`` does the same with an argsort; here one plain sort
    finds the distinct values and a vectorised open-addressing hash table (linear probing, load
    factor <= 1/4) maps each key to its position, which is several times faster for millions of
    keys with few distinct values.

    Examples
    --------
    >>> uniques, inverse = factorize_u64(np.array([7, 3, 7, 9], dtype=np.uint64))
    >>> uniques.tolist(), inverse.tolist()
    ([3, 7, 9], [1, 0, 1, 2])
    """
    keys = np.asarray(keys, dtype=np.uint64)
    if keys.size == 0:
        return keys.copy(), np.zeros(0, np.int64)
    ordered = np.sort(keys)
    distinct = np.empty(len(ordered), bool)
    distinct[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=distinct[1:])
    uniques = ordered[distinct]
    bits = max(4, int(len(uniques)).bit_length() + 2)
    size, shift = 1 << bits, np.uint64(64 - bits)
    table_key = np.zeros(size, np.uint64)
    table_pos = np.full(size, -1, np.int64)
    # Insert the (few) distinct keys round by round; colliding ones move one slot on.
    pending, slot = np.arange(len(uniques)), ((uniques * _GOLDEN) >> shift).astype(np.int64)
    while len(pending):
        free = table_pos[slot] < 0
        table_pos[slot[free]] = pending[free]  # several may race for one slot: one wins
        won = table_pos[slot] == pending
        table_key[slot[won]] = uniques[pending[won]]
        pending, slot = pending[~won], (slot[~won] + 1) & (size - 1)
    # Look every key up; all are present, so each probe sequence ends at its key. The first
    # probe is done for all keys at once (in place, to spare allocations); the few collided keys
    # then follow their chains.
    slot = np.multiply(keys, _GOLDEN)
    np.right_shift(slot, shift, out=slot)
    slot = slot.view(np.int64)  # < 2**bits: the same values as signed integers
    inverse = table_pos[slot]
    pending = np.flatnonzero(table_key[slot] != keys)
    slot = slot[pending]
    while len(pending):
        slot = (slot + 1) & (size - 1)
        found = table_key[slot] == keys[pending]
        inverse[pending[found]] = table_pos[slot[found]]
        pending, slot = pending[~found], slot[~found]
    return uniques, inverse


def _buffer(segments: Sequence[str], unicode_table: Callable[[], dict]) -> bytes | None:
    text = "\x00".join(segments)
    if text.count("\x00") != len(segments) - 1:
        return None  # a NUL inside a segment
    if text.isascii():  # the common case: three C-level passes over the whole corpus
        return b"\x00" + text.encode("ascii").translate(_ASCII_TABLE, _ASCII_DELETE) + b"\x00" * _PAD
    parts = []
    for lo in range(0, len(segments), _BLOCK):
        block = segments[lo : lo + _BLOCK]
        chunk = "\x00".join(block)
        if chunk.isascii():
            parts.append(chunk.encode("ascii").translate(_ASCII_TABLE, _ASCII_DELETE))
        else:  # str.translate is ~40x slower on non-ASCII text, so only such blocks pay for it
            table = unicode_table()
            parts.append("\x00".join(" ".join(s.lower().translate(table).split()) for s in block).encode("utf-8"))
    return b"\x00" + b"\x00".join(parts) + b"\x00" * _PAD


def _boundaries(arr: np.ndarray, n_segments: int, control_bytes: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Token positions ``j`` (the token starts at byte ``j + 1``), lengths, and segment of each token."""
    # Space and NUL separate tokens; every other byte belongs to one. Bytes 1-31 that are not
    # whitespace (already spaces) are token bytes too, but so rare that one C-level scan decides
    # whether the quick test "byte > 32" may be used.
    is_token = (arr != 32) & (arr != 0) if control_bytes else arr > 32
    # The buffer starts and ends with NUL, so changes alternate: start, end, start, end, ...
    # (j = a change between bytes j and j+1; the +1 is folded into the readers' offsets).
    changes = np.flatnonzero(np.diff(is_token.view(np.int8)))
    starts = changes[0::2]
    lengths = changes[1::2] - starts
    separators = np.flatnonzero(arr[: len(arr) - _PAD] == 0)  # one before every segment
    first_token = np.append(np.searchsorted(starts, separators), len(starts))
    segment = np.repeat(np.arange(n_segments, dtype=np.int32 if n_segments < 2**31 else np.int64), np.diff(first_token))
    return starts, lengths, segment


def _words(buffer: bytes) -> np.ndarray:
    """Every 8-byte little-endian word of the buffer, word ``j`` starting at byte ``j + 1``.

    Unaligned reads through a stride-1 view: a token's key is one gather, no per-token Python.
    The key's memory image is the token's bytes followed by zeros, which :func:`_decode` reads back.
    """
    return np.ndarray(shape=(len(buffer) - 9,), dtype="<u8", buffer=buffer, offset=1, strides=(1,))


def _decode(keys: np.ndarray, width: int) -> list[str]:
    # The keys' memory viewed as fixed-width byte strings; numpy drops the zero padding.
    raw = np.ascontiguousarray(keys, dtype="<u8").view(f"S{8 * width}").ravel()
    return [token.decode("utf-8") for token in raw.tolist()]


def _exact_pairs(first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct ``(first, second)`` pairs (as rows) and each pair's position among them."""
    hashed = (second + np.uint64(1)) * _GOLDEN ^ first
    uniques, inverse = factorize_u64(hashed)
    representative = np.empty(len(uniques), np.int64)
    representative[inverse] = np.arange(len(inverse))
    chosen = representative[inverse]
    if ((first[chosen] == first) & (second[chosen] == second)).all():
        return np.stack([first[representative], second[representative]], axis=1), inverse
    # Two different pairs share a 64-bit hash (astronomically rare): sort them exactly instead.
    pairs, inverse = np.unique(np.stack([first, second], axis=1), axis=0, return_inverse=True)
    return pairs, inverse.ravel()


def corpus_token_ids(
    segments: Sequence[str], unicode_table: Callable[[], dict]
) -> tuple[np.ndarray, np.ndarray, list[str]] | None:
    """``(ids, segment_of_token, vocabulary)``, or ``None`` if a segment contains NUL.

    ``unicode_table()`` returns the ``str.translate`` table deleting Unicode punctuation (only
    built when a non-ASCII block needs it). The corpus is processed in chunks of ``_CHUNK``
    segments whose per-token arrays stay in the CPU caches (twice as fast at SNLI size as one
    pass over everything); the chunks' small vocabularies are then merged.
    """
    segments = list(segments)
    if len(segments) <= _CHUNK:
        return _chunk_token_ids(segments, unicode_table)
    parts = []
    for lo in range(0, len(segments), _CHUNK):
        part = _chunk_token_ids(segments[lo : lo + _CHUNK], unicode_table)
        if part is None:
            return None
        parts.append((lo, *part))
    vocab = sorted(set().union(*(names for _, _, _, names in parts)))
    rank = {token: i for i, token in enumerate(vocab)}
    ids = np.concatenate([np.fromiter(map(rank.__getitem__, names), np.int64, count=len(names))[local]
                          for _, local, _, names in parts])
    segment = np.concatenate([local_segment.astype(np.int64) + lo for lo, _, local_segment, _ in parts])
    return ids, segment, vocab


def _chunk_token_ids(
    segments: list[str], unicode_table: Callable[[], dict]
) -> tuple[np.ndarray, np.ndarray, list[str]] | None:
    """:func:`corpus_token_ids` of one chunk."""
    if not len(segments):
        return np.zeros(0, np.int64), np.zeros(0, np.int64), []
    buffer = _buffer(segments, unicode_table)
    if buffer is None:
        return None
    control_bytes = len(buffer.translate(None, _CONTROL)) != len(buffer) - buffer.count(0)
    starts, lengths, segment = _boundaries(np.frombuffer(buffer, np.uint8), len(segments), control_bytes)
    words = _words(buffer)
    # Every token's first 8 bytes: exact for tokens of up to 8 bytes (most of them); longer
    # tokens that share those bytes are told apart below.
    first_classes, first_id = factorize_u64(words[starts] & _MASK[np.minimum(lengths, 8)])
    over = np.flatnonzero(lengths > 8)
    medium, long_ = over[lengths[over] <= 16], over[lengths[over] > 16]
    in_short = np.bincount(first_id, minlength=len(first_classes)) > np.bincount(
        first_id[over], minlength=len(first_classes))
    short_names = _decode(first_classes[in_short], 1)
    pairs, medium_id = _exact_pairs(first_id[medium].astype(np.uint64),
                                    words[starts[medium] + 8] & _MASK[lengths[medium] - 8])
    medium_names = _decode(np.stack([first_classes[pairs[:, 0].astype(np.int64)], pairs[:, 1]], axis=1), 2)
    long_tokens = [buffer[s + 1 : s + 1 + n].decode("utf-8") for s, n in zip(starts[long_].tolist(), lengths[long_].tolist())]
    long_names = sorted(set(long_tokens))
    vocab = sorted([*short_names, *medium_names, *long_names])
    rank = {token: i for i, token in enumerate(vocab)}

    def ranks(names: list[str]) -> np.ndarray:
        return np.fromiter(map(rank.__getitem__, names), np.int64, count=len(names))

    by_first = np.full(len(first_classes), -1, np.int64)
    by_first[in_short] = ranks(short_names)
    ids = by_first[first_id]
    ids[medium] = ranks(medium_names)[medium_id]
    if len(long_):
        position = dict(zip(long_names, ranks(long_names).tolist()))
        ids[long_] = np.fromiter(map(position.__getitem__, long_tokens), np.int64, count=len(long_tokens))
    return ids, segment, vocab
