"""Library side of `paralign align`, `evaluate-aligner` and `tune-aligner`.

Reading input pairs (TSV, two line-aligned files, JSONL) with per-line error reports, scoring an
aligner on a gold file (annotation and alignment timed separately) and the (ppdb_sim, w) grid
search of the paper (annotate once, align many times).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..alignment import Alignment
from ..errors import ConfigurationError, FormatError, MismatchError
from ..sentence import Sentence
from .sultan import Aligner

if TYPE_CHECKING:
    from ..corpora.base import AlignedPair
    from ..metrics.alignment_scores import SkippedPair

Progress = Callable[[Iterable[Any]], Iterable[Any]]

#: The paper's grid: ppdbSim and w in {0.1, ..., 1.0}.
GRID: tuple[float, ...] = tuple(round(0.1 * k, 1) for k in range(1, 11))


@dataclass(frozen=True, slots=True)
class InputPair:
    """One input pair to align, or the reason it could not be read (`error`)."""

    line: int
    source: str | list[str] | None
    target: str | list[str] | None
    id: str | None = None
    error: str | None = None
    origin: str | None = None  #: the file the error is in, when pairs come from two files


def _tokens(text: Any, tokenized: bool) -> str | list[str]:
    if isinstance(text, list):
        return [str(t) for t in text]
    return text.split() if tokenized else text


def _pair(number: int, source: Any, target: Any, tokenized: bool, pair_id: str | None = None) -> InputPair:
    """An InputPair, or an error one when a side is empty (nothing to align)."""
    src, tgt = _tokens(source, tokenized), _tokens(target, tokenized)
    empty = [side for side, x in (("source", src), ("target", tgt))
             if not (x if isinstance(x, list) else x.strip())]
    if empty:
        return InputPair(number, None, None, pair_id, error=f"empty {' and '.join(empty)} sentence")
    return InputPair(number, src, tgt, pair_id)


def parse_tsv_line(line: str, number: int, tokenized: bool) -> InputPair:
    """`source<TAB>target` (an optional leading id column makes three fields)."""
    fields = line.rstrip("\r\n").split("\t")
    if len(fields) == 3:
        pair_id, src, tgt = fields
    elif len(fields) == 2:
        pair_id, (src, tgt) = None, fields
    else:
        return InputPair(number, None, None, error="expected 2 tab-separated fields (source, target) "
                         f"or 3 (id, source, target), got {len(fields)}")
    return _pair(number, src, tgt, tokenized, pair_id)


def parse_jsonl_line(line: str, number: int, tokenized: bool) -> InputPair:
    """`{"source": ..., "target": ..., ["id": ...]}`; string or token-list values."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        return InputPair(number, None, None, error=f"invalid JSON: {exc.msg}")
    if not isinstance(obj, dict) or not all(isinstance(obj.get(k), (str, list)) for k in ("source", "target")):
        return InputPair(number, None, None, error="expected an object with 'source' and 'target'")
    pair_id = obj.get("id")
    return _pair(number, obj["source"], obj["target"], tokenized, None if pair_id is None else str(pair_id))


def read_pairs(lines: Iterable[str], fmt: str = "auto", tokenized: bool = False) -> Iterator[InputPair]:
    """Parse TSV or JSONL lines (`auto`: JSONL when a line starts with '{'); blank lines and
    empty sentences are reported as errors so output positions stay aligned with input lines."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            yield InputPair(number, None, None, error="empty line")
            continue
        use_json = fmt == "jsonl" or (fmt == "auto" and line.lstrip().startswith("{"))
        yield (parse_jsonl_line if use_json else parse_tsv_line)(line, number, tokenized)


def read_parallel(source_lines: Iterable[str], target_lines: Iterable[str], tokenized: bool = False,
                  *, source_name: str = "source", target_name: str = "target") -> Iterator[InputPair]:
    """Pairs from two line-aligned files; a length mismatch raises MismatchError at the end.

    An empty line on either side gives an error pair (reported like a blank TSV line)."""
    src_iter, tgt_iter = iter(source_lines), iter(target_lines)
    number = 0
    for number, src in enumerate(src_iter, start=1):
        tgt = next(tgt_iter, None)
        if tgt is None:
            raise MismatchError(f"{target_name} has {number - 1} lines but {source_name} has more")
        if not src.strip() or not tgt.strip():
            yield InputPair(number, None, None, error="empty line",
                            origin=source_name if not src.strip() else target_name)
            continue
        yield InputPair(number, _tokens(src.rstrip("\r\n"), tokenized), _tokens(tgt.rstrip("\r\n"), tokenized))
    if next(tgt_iter, None) is not None:
        raise MismatchError(f"{source_name} has {number} lines but {target_name} has more")


def align_input(aligner: Aligner, pairs: Sequence[InputPair], workers: int = 1,
                progress: Progress | None = None) -> list[tuple[InputPair, Sentence | None,
                                                                 Sentence | None, Alignment | None]]:
    """Align the readable pairs (batched); unreadable ones come back with None results."""
    good = [p for p in pairs if p.error is None]
    flat: list[str | list[str]] = [x for p in good for x in (p.source, p.target)]  # type: ignore[misc]
    sentences = aligner.annotate(flat, workers=workers)
    annotated = list(zip(sentences[0::2], sentences[1::2], strict=True))
    alignments = aligner.align_annotated(annotated, workers=workers, progress=progress)
    results: dict[int, tuple[Sentence, Sentence, Alignment]] = {
        p.line: (s, t, a) for p, (s, t), a in zip(good, annotated, alignments, strict=True)
    }
    out = []
    for p in pairs:
        s, t, a = results.get(p.line, (None, None, None))
        out.append((p, s, t, a))
    return out


def alignment_record(pair: InputPair, source: Sentence, target: Sentence, alignment: Alignment) -> dict[str, Any]:
    """JSON output of one aligned pair: tokens, links and aligned word pairs."""
    links = sorted(alignment.sure)
    record: dict[str, Any] = {"line": pair.line}
    if pair.id is not None:
        record["id"] = pair.id
    record.update({
        "source": list(source.tokens), "target": list(target.tokens),
        "alignment": alignment.to_pharaoh(), "links": [list(x) for x in links],
        "pairs": [[source.tokens[i], target.tokens[j]] for i, j in links],
    })
    return record


# -- evaluation ------------------------------------------------------------------------------------
def _check_limit(limit: int | None) -> None:
    if limit is not None and limit < 1:
        raise ConfigurationError(f"limit must be at least 1, got {limit}")


def load_gold(path: str | Path, limit: int | None = None) -> list[AlignedPair]:
    """Gold pairs of any format the corpora loaders read (optionally the first `limit` >= 1)."""
    from ..corpora import load_pairs

    _check_limit(limit)
    pairs = load_pairs(path)
    return pairs if limit is None else pairs[:limit]


def read_gold(
    path: str | Path, limit: int | None = None
) -> tuple[list[AlignedPair], list[int], list[SkippedPair]]:
    """Like :func:`load_gold`, but a bad gold item is left out and recorded instead of stopping
    the run: (usable pairs, their 1-based positions, SkippedPair records). No usable pair at all
    is a FormatError naming the first reason."""
    from ..corpora import read_pairs
    from ..metrics.alignment_scores import usable_pairs

    _check_limit(limit)
    items = read_pairs(path)
    if not items:
        raise FormatError("no pairs in the gold file", source=str(path))
    gold, positions, skipped = usable_pairs(items if limit is None else items[:limit])
    if not gold:
        raise FormatError(f"no usable pairs in the gold file ({skipped[0].reason})", source=str(path))
    return gold, positions, skipped


def annotate_gold(
    aligner: Aligner, gold: Sequence[AlignedPair], workers: int = 1
) -> list[tuple[Sentence, Sentence]]:
    """Parse both sides of every gold pair in one batch, so alignment can be timed (and tuned) apart."""
    flat = [x for p in gold for x in (list(p.source), list(p.target))]
    sentences = aligner.annotate(flat, workers=workers)
    return list(zip(sentences[0::2], sentences[1::2], strict=True))


def evaluate_aligner(aligner: Aligner, gold_path: str | Path, links: str = "sure", workers: int = 1,
                     limit: int | None = None, progress: Progress | None = None) -> dict[str, Any]:
    """Align every gold pair and score it: score-alignments' JSON plus timings."""
    from ..metrics.alignment_scores import score_alignments

    gold, positions, skipped = read_gold(gold_path, limit)
    aligner.related  # noqa: B018 - load resources outside the timings
    aligner.annotate(["Warm up the parser."])
    start = time.perf_counter()
    annotated = annotate_gold(aligner, gold, workers)
    annotate_seconds = time.perf_counter() - start
    start = time.perf_counter()
    system = aligner.align_annotated(annotated, workers=workers, progress=progress)
    align_seconds = time.perf_counter() - start
    result = score_alignments(
        [p.alignment for p in gold], system, links, source=str(gold_path), positions=positions, skipped=skipped
    ).to_dict()
    result.update({
        "gold": str(gold_path), "annotate_seconds": round(annotate_seconds, 3),
        "align_seconds": round(align_seconds, 3),
        "pairs_per_second": round(len(gold) / max(annotate_seconds + align_seconds, 1e-9), 2),
        "align_ms_per_pair": round(1000 * align_seconds / len(gold), 3),
    })
    return result


def tune_aligner(aligner: Aligner, gold_path: str | Path, links: str = "sure",
                 ppdb_grid: Sequence[float] = GRID, w_grid: Sequence[float] = GRID,
                 workers: int = 1, limit: int | None = None,
                 progress: Progress | None = None) -> dict[str, Any]:
    """Grid-search (ppdb_sim, w) by macro F1 on a gold file; annotation is done once."""
    from ..metrics.alignment_scores import score_alignments

    gold, _, skipped = read_gold(gold_path, limit)
    annotated = annotate_gold(aligner, gold, workers)
    gold_alignments = [p.alignment for p in gold]
    grid = [(p, w) for p in ppdb_grid for w in w_grid]
    rows = []
    for ppdb_sim, w in progress(grid) if progress else grid:
        variant = aligner.with_params(ppdb_sim=ppdb_sim, w=w)
        scores = score_alignments(gold_alignments, variant.align_annotated(annotated, workers=workers), links)
        macro = scores.macro
        rows.append({"ppdb_sim": ppdb_sim, "w": w, "precision": macro.precision,
                     "recall": macro.recall, "f1": macro.f1, "exact": scores.exact})
    # ties: the point nearest the paper's (0.9, 0.9)
    best = max(rows, key=lambda r: (round(r["f1"], 12), -abs(r["ppdb_sim"] - 0.9) - abs(r["w"] - 0.9)))
    return {"gold": str(gold_path), "pairs": len(gold), "links": links, "best": best, "grid": rows,
            "skipped": len(skipped), "skipped_rows": [r.to_dict() for r in skipped]}
