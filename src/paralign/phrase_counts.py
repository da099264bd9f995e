"""Consistent phrase pairs of many aligned sentences at once, counted: numpy and pyarrow, no
Python loop per sentence or per pair.

The pivot pipelines extract phrase pairs from millions of sentence pairs; :func:`phrase_spans`
(one sentence at a time, in Python) is the definition's reference, this module its vectorised
twin over a whole chunk.  Every token of the chunk gets a global position (sentence offset +
index), so one set of arrays holds all sentences:

1. per position, the min/max linked position on the other side (``np.minimum.at``);
2. every source span [s1, s1 + L) (L <= max_length, inside its sentence) gets its tight target
   span [lo, hi] by sliding min/max windows of width L;
3. it is consistent when hi - lo < max_length and no target word in [lo, hi] links outside the
   source span (sliding windows over the target side, of every width up to max_length);
4. each consistent pair is extended over the unaligned target words at its edges (every
   combination within max_length), as :func:`paralign.phrases.phrase_spans` does;
5. span texts are built by pyarrow (`take` + `binary_join`), dictionary-encoded, and pairs are
   counted as integer keys (``np.unique``), so the result is one Arrow table ``e, f, count``.

Not for: single sentences with their offsets (:mod:`paralign.phrases`), or counting across
chunks (the pipeline's group-bys in :mod:`paralign.pivot_frames`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .alignment import MAX_PHRASE_LENGTH
from .errors import AlignmentIndexError, ConfigurationError, FormatError, check_count

#: The schema of a chunk's phrase-pair counts.
COUNT_SCHEMA = pa.schema([("e", pa.string()), ("f", pa.string()), ("count", pa.int64())])
_BIG = np.iinfo(np.int64).max // 4
_INT64_MAX = int(np.iinfo(np.int64).max)


def split_tokens(lines: Sequence[str]) -> tuple[pa.Array, np.ndarray]:
    """Whitespace-split `lines` (as `str.split()`): the flat token array and the sentence
    offsets (K + 1); an empty or blank line has no tokens."""
    lists = pc.utf8_split_whitespace(pa.array(lines, pa.string()))
    flat = lists.flatten()
    nonempty = np.asarray(pc.not_equal(flat, ""), dtype=bool) if len(flat) else np.zeros(0, bool)
    line_offsets: np.ndarray = np.asarray(lists.offsets, np.int64)  # named: numpy's stubs typed its diff timedelta64
    owner = np.repeat(np.arange(len(lines), dtype=np.int64), np.diff(line_offsets))
    counts = np.bincount(owner[nonempty], minlength=len(lines))
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    return (flat.filter(pa.array(nonempty)) if not nonempty.all() else flat), offsets


def parse_pharaoh(lines: Sequence[str], source: str = "", first_line: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Links of Pharaoh lines (``i-j``, 0-based): arrays (sentence index, i, j).

    A link that is not ``i-j`` raises FormatError naming `source` and the line
    (`first_line` is the number of ``lines[0]``)."""
    items, offsets = split_tokens(lines)
    sentence = np.repeat(np.arange(len(lines), dtype=np.int64), np.diff(offsets))
    parts = pc.split_pattern(items, "-")
    ok = np.asarray(pc.list_value_length(parts)) == 2 if len(parts) else np.zeros(0, bool)
    if len(parts):
        flat = parts.flatten()
        try:
            numbers = np.asarray(pc.cast(flat, pa.int64())) if ok.all() else None
        except pa.ArrowInvalid:
            numbers = None
        if numbers is None or (numbers < 0).any():
            _raise_bad_link(lines, source, first_line)
        pairs = numbers.reshape(-1, 2)
        return sentence, pairs[:, 0], pairs[:, 1]
    return sentence, np.zeros(0, np.int64), np.zeros(0, np.int64)


def _raise_bad_link(lines: Sequence[str], source: str, first_line: int) -> NoReturn:
    """The error of the first bad link of `lines`: not ``i-j``, or a number past int64 (which
    Arrow's cast refuses: it was 'malformed links' at the chunk's first line, not the link's)."""
    for number, line in enumerate(lines, start=first_line):
        for link in line.split():
            i, sep, j = link.partition("-")
            if not (sep and i.isdigit() and j.isdigit() and i.isascii() and j.isascii()):
                raise FormatError(f"malformed link {link!r} (expected i-j)", source=source, line=number)
            if max(int(i), int(j)) > _INT64_MAX:
                raise AlignmentIndexError(f"link {link} outside any sentence (a token index past 2**63 - 1)",
                                          source=source or None, line=number)
    raise FormatError("malformed links", source=source, line=first_line)  # pragma: no cover - unreachable


def _windows(values: np.ndarray, width: int, reduce: np.ufunc, fill: int) -> list[np.ndarray]:
    """``out[w - 1][p] = reduce(values[p : p + w])`` for w = 1..width (past the end: `fill`)."""
    out = [values]
    padded = np.concatenate([values, np.full(width, fill, dtype=values.dtype)])
    for w in range(2, width + 1):
        out.append(reduce(out[-1], padded[w - 1 : w - 1 + len(values)]))
    return out


def _free_runs(unaligned: np.ndarray, starts: np.ndarray, ends: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Per target position: how many unaligned words (up to width - 1) lie just left / right of
    it within its sentence (`starts`/`ends`: its sentence's first and one-past-last position)."""
    n = len(unaligned)
    position = np.arange(n, dtype=np.int64)
    padded = np.concatenate([[False], unaligned, [False]])
    left = np.zeros(n, np.int64)
    right = np.zeros(n, np.int64)
    go_left = np.ones(n, bool)
    go_right = np.ones(n, bool)
    for d in range(1, width):
        go_left &= (position - d >= starts) & padded[np.clip(position - d + 1, 0, n + 1)]
        go_right &= (position + d < ends) & padded[np.clip(position + d + 1, 0, n + 1)]
        left += go_left
        right += go_right
    return left, right


def span_pairs(
    e_offsets: np.ndarray,
    f_offsets: np.ndarray,
    links: tuple[np.ndarray, np.ndarray, np.ndarray],
    max_length: int = MAX_PHRASE_LENGTH,
    *,
    source: str = "",
    first_line: int = 1,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """All consistent span pairs of a chunk as global positions (s1, source length, t1, target
    length), both lengths <= max_length: the same set as `phrases.phrase_spans` per sentence.

    A link outside its sentence raises AlignmentIndexError naming `source` and the line."""
    max_length = check_count(max_length, "max_length")  # as phrase_spans: 2.5 or True was a TypeError from numpy
    sentence, li, lj = links
    e_len = np.diff(e_offsets)
    f_len = np.diff(f_offsets)
    bad = (li >= e_len[sentence]) | (lj >= f_len[sentence])
    if bad.any():
        k = int(np.argmax(bad))
        raise AlignmentIndexError(
            f"link {li[k]}-{lj[k]} outside sentences of {e_len[sentence[k]]} and {f_len[sentence[k]]} tokens",
            source=source or None, line=first_line + int(sentence[k]),
        )
    gi = e_offsets[:-1][sentence] + li
    gj = f_offsets[:-1][sentence] + lj
    n_e, n_f = int(e_offsets[-1]), int(f_offsets[-1])
    src_min = np.full(n_e, _BIG, np.int64)
    src_max = np.full(n_e, -1, np.int64)
    tgt_min = np.full(n_f, _BIG, np.int64)
    tgt_max = np.full(n_f, -1, np.int64)
    np.minimum.at(src_min, gi, gj)
    np.maximum.at(src_max, gi, gj)
    np.minimum.at(tgt_min, gj, gi)
    np.maximum.at(tgt_max, gj, gi)
    e_end = np.repeat(e_offsets[1:], e_len)
    f_start = np.repeat(f_offsets[:-1], f_len)
    f_end = np.repeat(f_offsets[1:], f_len)
    lo_windows = _windows(src_min, max_length, np.minimum, _BIG)
    hi_windows = _windows(src_max, max_length, np.maximum, -1)
    tmin_windows = np.stack(_windows(tgt_min, max_length, np.minimum, _BIG)) if n_f else None
    tmax_windows = np.stack(_windows(tgt_max, max_length, np.maximum, -1)) if n_f else None
    left_free, right_free = _free_runs(tgt_max < 0, f_start, f_end, max_length)
    position = np.arange(n_e, dtype=np.int64)
    out: list[tuple[np.ndarray, ...]] = []
    for length in range(1, max_length + 1):
        lo, hi = lo_windows[length - 1], hi_windows[length - 1]
        keep = (position + length <= e_end) & (hi >= 0)
        keep[keep] &= hi[keep] - lo[keep] < max_length
        s1, lo, hi = position[keep], lo[keep], hi[keep]
        if tmin_windows is None or tmax_windows is None or not len(s1):  # both None or neither
            continue
        width = hi - lo
        consistent = (tmin_windows[width, lo] >= s1) & (tmax_windows[width, lo] <= s1 + length - 1)
        s1, lo, hi = s1[consistent], lo[consistent], hi[consistent]
        free_l, free_r, base = left_free[lo], right_free[hi], hi - lo + 1
        for a in range(max_length):
            for b in range(max_length - a):
                ext = (a <= free_l) & (b <= free_r) & (base + a + b <= max_length)
                if ext.any():
                    out.append((s1[ext], np.full(int(ext.sum()), length), lo[ext] - a, (base + a + b)[ext]))
    if not out:
        empty = np.zeros(0, np.int64)
        return empty, empty, empty, empty
    s1, e_lengths, t1, f_lengths = (np.concatenate([part[k] for part in out]).astype(np.int64) for k in range(4))
    return s1, e_lengths, t1, f_lengths


def _span_texts(tokens: pa.Array, offsets: np.ndarray, max_length: int) -> tuple[pa.Array, np.ndarray]:
    """Texts of every span [p, p + L) inside a sentence, L = 1..max_length, as one array, and the
    index of (p, L) in it: ``index[L - 1, p]`` (-1 where the span leaves its sentence)."""
    n = len(tokens)
    lengths = np.diff(offsets)
    end = np.repeat(offsets[1:], lengths)
    position = np.arange(n, dtype=np.int64)
    index = np.full((max_length, n), -1, np.int64)
    texts: list[pa.Array] = []
    base = 0
    for length in range(1, max_length + 1):
        starts = position[position + length <= end]
        if not len(starts):
            break
        take = (starts[:, None] + np.arange(length)[None, :]).ravel()
        lists = pa.ListArray.from_arrays(pa.array(np.arange(0, len(take) + 1, length, dtype=np.int32)),
                                         tokens.take(pa.array(take)))
        texts.append(pc.binary_join(lists, " "))
        index[length - 1, starts] = base + np.arange(len(starts))
        base += len(starts)
    return (pa.concat_arrays(texts) if texts else pa.array([], pa.string())), index


def count_phrase_pairs(
    e_lines: Sequence[str],
    f_lines: Sequence[str],
    align_lines: Sequence[str],
    max_length: int = MAX_PHRASE_LENGTH,
    *,
    include_identical: bool = True,
    symmetric: bool = False,
    source: str = "",
    first_line: int = 1,
) -> pa.Table:
    """Counts of consistent phrase pairs (e text, f text) over line-aligned token lines and
    their Pharaoh links: a table ``e, f, count`` (COUNT_SCHEMA), one row per distinct pair.

    Texts are tokens joined by single spaces.  `include_identical=False` drops pairs with
    equal texts; `symmetric` also counts (f, e).  `source`/`first_line` name the alignment
    lines in errors."""
    if not (len(e_lines) == len(f_lines) == len(align_lines)):
        raise ConfigurationError("token and alignment lines differ in number")
    e_tokens, e_offsets = split_tokens(e_lines)
    f_tokens, f_offsets = split_tokens(f_lines)
    links = parse_pharaoh(align_lines, source, first_line)
    s1, s_len, t1, t_len = span_pairs(e_offsets, f_offsets, links, max_length, source=source, first_line=first_line)
    e_texts, e_index = _span_texts(e_tokens, e_offsets, max_length)
    f_texts, f_index = _span_texts(f_tokens, f_offsets, max_length)
    e_codes = pc.dictionary_encode(e_texts)
    f_codes = pc.dictionary_encode(f_texts)
    e_id = np.asarray(e_codes.indices, np.int64)[e_index[s_len - 1, s1]] if len(s1) else np.zeros(0, np.int64)
    f_id = np.asarray(f_codes.indices, np.int64)[f_index[t_len - 1, t1]] if len(t1) else np.zeros(0, np.int64)
    width = max(1, len(f_codes.dictionary))
    keys, counts = np.unique(e_id * width + f_id, return_counts=True)
    table = pa.table({
        "e": e_codes.dictionary.take(pa.array(keys // width)),
        "f": f_codes.dictionary.take(pa.array(keys % width)),
        "count": pa.array(counts, pa.int64()),
    }, schema=COUNT_SCHEMA)
    if not include_identical:
        table = table.filter(pc.not_equal(table["e"], table["f"]))
    if symmetric:
        swapped = pa.table({"e": table["f"], "f": table["e"], "count": table["count"]}, schema=COUNT_SCHEMA)
        table = pa.concat_tables([table, swapped]).group_by(["e", "f"]).aggregate([("count", "sum")])
        table = table.rename_columns(["e", "f", "count"]).select(["e", "f", "count"])
    return table
