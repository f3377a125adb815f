"""Compiled SPEC-bias §1.1 tokenisation of a whole corpus (the speed path of :mod:`mlcore.lexical`).

:func:`corpus_token_ids` returns, for a list of segments, the id of every token in a sorted
vocabulary and the segment it came from, exactly as ``lexical_tokens`` would split each segment,
without creating a Python object per token:

1. Segments are joined with NUL into one byte string. ASCII blocks are lower-cased and stripped
   of punctuation by ``bytes.lower``/``bytes.translate`` (all ASCII whitespace becomes a space);
   blocks with other characters go through ``str.lower``/``str.translate`` with the Unicode
   punctuation table and ``str.split``, then UTF-8.
2. One compiled pass (numba) over the bytes splits tokens (any byte but space and NUL is a token
   byte), counts segments at the NULs, and looks every token up in an open-addressing hash
   table keyed by the token's bytes, giving each distinct token an id in order of appearance.
3. Only the distinct tokens are decoded and sorted as Python strings (code-point order, SPEC §0);
   the ids are then renumbered into that order.

The plain-numpy version this replaced (sort-based factorisation of 8-byte keys) spent most of
its time in sorts and gathers over millions of tokens; one sequential pass with a cache-resident
table is several times faster (``benchmarks/lexical_stats.py``). A segment containing NUL (which
is neither whitespace nor punctuation, so part of a token) is left to the caller's per-segment
path: :func:`corpus_token_ids` returns ``None`` then.

numba compiles the scan on first use (a few seconds) and caches the machine code next to this
file, or under ``NUMBA_CACHE_DIR`` when that folder is read-only.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

import numba
import numpy as np

from mlcore.threads import map_in_threads, split_points

__all__ = ["corpus_token_ids", "factorize_u64"]

_BLOCK = 4096  # segments per join/translate call when the corpus has non-ASCII text
_PAD = 24  # zero bytes after the buffer: the scan may read one byte past any token
_ASCII_WHITESPACE = b"\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"  # what str.split() splits on, besides space
_ASCII_DELETE = bytes(c for c in range(128) if unicodedata.category(chr(c)).startswith("P"))
# ASCII whitespace -> space and upper case -> lower case in one translate pass.
_ASCII_TABLE = bytes(32 if c in _ASCII_WHITESPACE else c + 32 if 65 <= c <= 90 else c for c in range(256))
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # multiplier spreading a hash over the table's slots
_FIRST_TABLE_BITS = 16  # 65,536 slots; the table doubles while the scan runs
_MIN_PART = 50_000  # segments per thread: smaller parts cost more in merging than they save


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


@numba.njit(nogil=True, cache=True, boundscheck=False)
def _scan(buf, state, table, hashes, starts, ids, segment_of, multiplier):  # pragma: no cover - compiled
    """Tokenise ``buf`` from ``state = [position, tokens, segment, distinct]`` on, in place.

    ``table`` (2**bits slots, -1 = empty) holds distinct-token ids; ``starts[d]`` is where token
    ``d`` first occurs and ``hashes[d]`` its hash. Returns early, with ``state`` updated, once
    the table is half full or ``starts`` is full, so the caller can grow them (numba makes
    reallocating arrays inside the loop slow).
    """
    position, t, segment, n_distinct = state[0], state[1], state[2], state[3]
    n, size = buf.size, table.size
    bits = np.uint64(0)
    while (1 << bits) < size:
        bits += np.uint64(1)
    shift, mask = np.uint64(64) - bits, size - 1
    while position < n:
        byte = buf[position]
        if byte == 0:
            segment += 1
            position += 1
            continue
        if byte == 32:
            position += 1
            continue
        if 2 * (n_distinct + 1) > size or n_distinct == starts.size:
            break  # a new token might not fit: let the caller grow the arrays first
        start, h = position, np.uint64(14695981039346656037)  # FNV-1a
        while buf[position] != 0 and buf[position] != 32:  # the buffer ends with NULs
            h = (h ^ np.uint64(buf[position])) * np.uint64(1099511628211)
            position += 1
        length = position - start
        slot = np.int64((h * multiplier) >> shift)
        while True:
            d = table[slot]
            if d < 0:  # a new token
                d = n_distinct
                table[slot], starts[d], hashes[d] = d, start, h
                n_distinct += 1
                break
            # Same bytes and ended by a separator at the same length: the same token.
            if hashes[d] == h:
                first = starts[d]
                same = buf[first + length] == 0 or buf[first + length] == 32
                k = 0
                while same and k < length:
                    same = buf[first + k] == buf[start + k]
                    k += 1
                if same:
                    break
            slot = (slot + 1) & mask
        ids[t], segment_of[t] = d, segment
        t += 1
    state[0], state[1], state[2], state[3] = position, t, segment, n_distinct


@numba.njit(nogil=True, cache=True)
def _rehash(hashes, n_distinct, bits, multiplier):  # pragma: no cover - compiled
    table = np.full(1 << bits, -1, np.int32)
    shift, mask = np.uint64(64 - bits), (1 << bits) - 1
    for d in range(n_distinct):
        slot = np.int64((hashes[d] * multiplier) >> shift)
        while table[slot] >= 0:
            slot = (slot + 1) & mask
        table[slot] = d
    return table


@numba.njit(nogil=True, cache=True)
def _token_ends(buf, starts):  # pragma: no cover - compiled
    ends = np.empty(starts.size, np.int64)
    for d in range(starts.size):
        end = starts[d]
        while buf[end] != 0 and buf[end] != 32:
            end += 1
        ends[d] = end
    return ends


def _scan_buffer(buffer: bytes, multiplier: np.uint64) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Ids in order of first appearance, segment of every token, first start of every distinct token."""
    buf = np.frombuffer(buffer, np.uint8)
    # Tokens are separated, so there are at most half as many as bytes. np.empty only reserves
    # address space: the pages the scan never writes cost no memory, and no counting pass is needed.
    n_tokens = (len(buf) + 1) // 2
    ids, segment_of = np.empty(n_tokens, np.int32), np.empty(n_tokens, np.int32)
    bits = _FIRST_TABLE_BITS
    table = np.full(1 << bits, -1, np.int32)
    capacity = min(n_tokens, 1 << (bits - 1)) + 1
    hashes, starts = np.empty(capacity, np.uint64), np.empty(capacity, np.int64)
    state = np.array([0, 0, -1, 0], np.int64)  # position, tokens, segment, distinct tokens
    while True:
        _scan(buf, state, table, hashes, starts, ids, segment_of, multiplier)
        n_distinct = int(state[3])
        if state[0] >= len(buf):
            n_found = int(state[1])
            return ids[:n_found].copy(), segment_of[:n_found].copy(), starts[:n_distinct], n_distinct
        if n_distinct == len(starts):
            capacity = min(n_tokens + 1, 2 * len(starts))
            hashes = np.concatenate([hashes, np.empty(capacity - len(hashes), np.uint64)])
            starts = np.concatenate([starts, np.empty(capacity - len(starts), np.int64)])
        if 2 * (n_distinct + 1) > len(table):
            bits += 1
            table = _rehash(hashes, n_distinct, bits, multiplier)


def corpus_token_ids(
    segments: Sequence[str], unicode_table: Callable[[], dict]
) -> tuple[np.ndarray, np.ndarray, list[str]] | None:
    """``(ids, segment_of_token, vocabulary)``, or ``None`` if a segment contains NUL.

    ``ids`` (int64) index ``vocabulary``, which is sorted in code-point order; ``segment_of_token``
    (int32) is non-decreasing. ``unicode_table()`` returns the ``str.translate`` table deleting
    Unicode punctuation (only built when a non-ASCII block needs it).

    Examples
    --------
    >>> ids, segment, vocab = corpus_token_ids(["The cat, the dog.", "", "Dog!"], dict)
    >>> vocab, ids.tolist(), segment.tolist()
    (['cat', 'dog', 'the'], [2, 0, 2, 1, 1], [0, 0, 0, 0, 2])
    """
    segments = list(segments)
    if len(segments) >= 2**31 - 1:
        raise ValueError(f"too many segments for int32 segment numbers: {len(segments)}")
    # Parts are tokenized in threads: the scans release the GIL and overlap with the next
    # part's byte buffer. Their small sorted vocabularies are then merged.
    bounds = split_points(len(segments), min_part=_MIN_PART)
    parts = map_in_threads(_part_token_ids, [(segments[a:b], unicode_table) for a, b in zip(bounds[:-1], bounds[1:])])
    if any(part is None for part in parts):
        return None
    if len(parts) == 1:
        return parts[0]
    vocab = sorted(set().union(*(names for _, _, names in parts)))
    rank = {token: i for i, token in enumerate(vocab)}
    ids = np.concatenate([np.fromiter(map(rank.__getitem__, names), np.int64, count=len(names))[local]
                          for local, _, names in parts])
    segment_of = np.concatenate([local_segment + np.int32(lo) for lo, (_, local_segment, _) in zip(bounds.tolist(), parts)])
    return ids, segment_of, vocab


def _part_token_ids(segments: list[str], unicode_table: Callable[[], dict]) -> tuple[np.ndarray, np.ndarray, list[str]] | None:
    """:func:`corpus_token_ids` of one part, in one thread."""
    if not segments:
        return np.zeros(0, np.int64), np.zeros(0, np.int32), []
    buffer = _buffer(segments, unicode_table)
    if buffer is None:
        return None
    first_ids, segment_of, starts, n_distinct = _scan_buffer(buffer, _GOLDEN)
    ends = _token_ends(np.frombuffer(buffer, np.uint8), starts)
    names = [buffer[a:b].decode("utf-8") for a, b in zip(starts.tolist(), ends.tolist())]
    order = sorted(range(n_distinct), key=names.__getitem__)
    rank = np.empty(n_distinct, np.int64)
    rank[order] = np.arange(n_distinct)
    return rank[first_ids], segment_of, [names[d] for d in order]
