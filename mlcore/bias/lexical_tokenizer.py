"""Compiled SPEC-bias §1.1 tokenisation of a whole corpus (the speed path of :mod:`mlcore.bias.lexical`).

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
from collections.abc import Callable, Mapping, Sequence

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
# First sizes of a part's vocabulary arrays; each doubles when full while the scan runs.
_FIRST_TABLE_BITS = 16  # hash table slots: 2**16
_FIRST_CAPACITY = 4096  # distinct tokens
_FIRST_ARENA = 1 << 16  # bytes of distinct tokens
_MIN_PART = 50_000  # segments per thread: smaller parts cost more in merging than they save
_CHUNK = 32_768  # segments per byte buffer


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


def _buffer(segments: Sequence[str], unicode_table: Callable[[], Mapping[int, int | None]]) -> bytes | None:
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
def _scan(buf: np.ndarray, state: np.ndarray, table: np.ndarray, hashes: np.ndarray, arena: np.ndarray,
          arena_start: np.ndarray, ids: np.ndarray, segment_of: np.ndarray, multiplier: np.uint64) -> None:  # pragma: no cover - compiled
    """Tokenise ``buf`` from ``state = [position, tokens, segment, distinct, arena bytes]`` on.

    ``table`` (2**bits slots, -1 = empty) holds distinct-token ids; token ``d``'s bytes are
    ``arena[arena_start[d]:]`` up to a space, and ``hashes[d]`` its hash. Returns early, with
    ``state`` updated, when a new token would not fit, so the caller can grow the arrays (numba
    makes reallocating arrays inside the loop slow).
    """
    position, t, segment, n_distinct, used = state[0], state[1], state[2], state[3], state[4]
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
        start, h = position, np.uint64(14695981039346656037)  # FNV-1a
        while buf[position] != 0 and buf[position] != 32:  # the buffer ends with NULs
            h = (h ^ np.uint64(buf[position])) * np.uint64(1099511628211)
            position += 1
        length = position - start
        slot = np.int64((h * multiplier) >> shift)
        while True:
            d = table[slot]
            if d < 0:  # a new token, if there is room for it
                if 2 * (n_distinct + 1) > size or n_distinct == hashes.size or used + length + 1 > arena.size:
                    state[0], state[1], state[2], state[3], state[4] = start, t, segment, n_distinct, used
                    return
                d = n_distinct
                table[slot], hashes[d], arena_start[d] = d, h, used
                arena[used : used + length] = buf[start:position]
                arena[used + length] = 32
                used += length + 1
                n_distinct += 1
                break
            # Same hash, same bytes, and a separator right after them: the same token.
            if hashes[d] == h:
                first = arena_start[d]
                same = arena[first + length] == 32
                k = 0
                while same and k < length:
                    same = arena[first + k] == buf[start + k]
                    k += 1
                if same:
                    break
            slot = (slot + 1) & mask
        ids[t], segment_of[t] = d, segment
        t += 1
    state[0], state[1], state[2], state[3], state[4] = position, t, segment, n_distinct, used


@numba.njit(nogil=True, cache=True)
def _rehash(hashes: np.ndarray, n_distinct: int, bits: int, multiplier: np.uint64) -> np.ndarray:  # pragma: no cover - compiled
    table = np.full(1 << bits, -1, np.int32)
    shift, mask = np.uint64(64 - bits), (1 << bits) - 1
    for d in range(n_distinct):
        slot = np.int64((hashes[d] * multiplier) >> shift)
        while table[slot] >= 0:
            slot = (slot + 1) & mask
        table[slot] = d
    return table


def _grown(array: np.ndarray, size: int) -> np.ndarray:
    return np.concatenate([array, np.empty(size - len(array), array.dtype)])


class _Vocabulary:
    """The distinct tokens of one thread's part of the corpus, in order of first appearance.

    Their bytes are kept in one arena (not in the chunk buffers, which come and go), which also
    keeps the compared bytes of frequent tokens close together in the CPU caches.
    """

    def __init__(self, multiplier: np.uint64) -> None:
        self.multiplier, self.bits = multiplier, _FIRST_TABLE_BITS
        self.table = np.full(1 << self.bits, -1, np.int32)
        self.hashes, self.arena_start = np.empty(_FIRST_CAPACITY, np.uint64), np.empty(_FIRST_CAPACITY, np.int64)
        self.arena = np.empty(_FIRST_ARENA, np.uint8)
        self.n_distinct = self.used = 0

    def scan(self, buffer: bytes) -> tuple[np.ndarray, np.ndarray]:
        """Ids of the buffer's tokens and their segment numbers (from 0) within the buffer."""
        buf = np.frombuffer(buffer, np.uint8)
        # Tokens are separated, so there are at most half as many as bytes. np.empty only
        # reserves address space: pages the scan never writes cost no memory.
        n_tokens = (len(buf) + 1) // 2
        ids, segment_of = np.empty(n_tokens, np.int32), np.empty(n_tokens, np.int32)
        state = np.array([0, 0, -1, self.n_distinct, self.used], np.int64)
        while True:
            _scan(buf, state, self.table, self.hashes, self.arena, self.arena_start, ids, segment_of, self.multiplier)
            self.n_distinct, self.used = int(state[3]), int(state[4])
            if state[0] >= len(buf):
                return ids[: state[1]], segment_of[: state[1]]
            self._grow(longest=len(buf))

    def _grow(self, longest: int) -> None:
        if self.n_distinct == len(self.hashes):
            self.hashes, self.arena_start = _grown(self.hashes, 2 * len(self.hashes)), _grown(self.arena_start, 2 * len(self.hashes))
        if self.used + longest + 1 > len(self.arena):  # room for any token of this buffer
            self.arena = _grown(self.arena, max(2 * len(self.arena), self.used + longest + 1))
        if 2 * (self.n_distinct + 1) > len(self.table):
            self.bits += 1
            self.table = _rehash(self.hashes, self.n_distinct, self.bits, self.multiplier)

    def names(self) -> list[str]:
        arena = self.arena[: self.used].tobytes()
        ends = _token_ends(self.arena, self.arena_start[: self.n_distinct])
        return [arena[a:b].decode("utf-8") for a, b in zip(self.arena_start[: self.n_distinct].tolist(), ends.tolist())]


@numba.njit(nogil=True, cache=True)
def _token_ends(arena: np.ndarray, starts: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    ends = np.empty(starts.size, np.int64)
    for d in range(starts.size):
        end = starts[d]
        while arena[end] != 32:
            end += 1
        ends[d] = end
    return ends


def corpus_token_ids(
    segments: Sequence[str], unicode_table: Callable[[], Mapping[int, int | None]]
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
    done = [part for part in parts if part is not None]
    if len(done) < len(parts):
        return None
    if len(done) == 1:
        return done[0]
    vocab = sorted(set[str]().union(*(names for _, _, names in done)))
    rank = {token: i for i, token in enumerate(vocab)}
    ids = np.concatenate([np.fromiter(map(rank.__getitem__, names), np.int64, count=len(names))[local]
                          for local, _, names in done])
    segment_of = np.concatenate([local_segment + np.int32(lo) for lo, (_, local_segment, _) in zip(bounds.tolist(), done)])
    return ids, segment_of, vocab


def _part_token_ids(segments: list[str], unicode_table: Callable[[], Mapping[int, int | None]]) -> tuple[np.ndarray, np.ndarray, list[str]] | None:
    """:func:`corpus_token_ids` of one part, in one thread, one chunk buffer at a time.

    Chunks of ``_CHUNK`` segments keep each byte buffer in the CPU caches while it is built,
    translated and scanned (one buffer for all of SNLI is about twice as slow per byte).
    """
    vocabulary = _Vocabulary(_GOLDEN)
    id_chunks, segment_chunks = [], []
    for lo in range(0, len(segments), _CHUNK):
        buffer = _buffer(segments[lo : lo + _CHUNK], unicode_table)
        if buffer is None:
            return None
        ids, segment_of = vocabulary.scan(buffer)
        id_chunks.append(ids)
        segment_chunks.append(segment_of + np.int32(lo) if lo else segment_of)
    names = vocabulary.names()
    order = sorted(range(len(names)), key=names.__getitem__)
    rank = np.empty(len(names), np.int64)
    rank[order] = np.arange(len(names))
    ids = rank[np.concatenate(id_chunks)] if id_chunks else np.zeros(0, np.int64)
    segment_of = np.concatenate(segment_chunks) if segment_chunks else np.zeros(0, np.int32)
    return ids, segment_of, [names[d] for d in order]
