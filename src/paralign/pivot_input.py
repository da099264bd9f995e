"""What the paraphrase-table pipelines read: their options, and stage 1 (prepare) of both.

`PivotOptions` holds every knob of `paralign.pivot`'s pipelines (`STAGE_OPTIONS` says which
stage reads each: part of that stage's fingerprint in a work directory).  Preparing streams
the input with the checks of `corpora.parallel` (or the groups of `corpora.groups`),
tokenises it with the pipeline's tokenizer options and writes the token files `en.tok` and
`f.tok` (one sentence pair a line) that the later stages align and extract phrase pairs
from.  A corpus with a given alignment in plain files is instead read in chunks by the workers
(`PreparedChunk`, :func:`read_chunk`), with the same checks and counts.

Not for: aligning, counting and pivoting (:mod:`paralign.pivot`).
"""

from __future__ import annotations

import itertools
import json
import math
import os
from collections import Counter
from collections.abc import Collection, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from numbers import Real
from pathlib import Path
from typing import Any, Protocol, TypeVar

from .aligners.eflomal import (
    alignable,
    check_symmetrization,
    links_to_pharaoh,
    token_limit,
    tokenize,
)
from .alignment import MAX_PHRASE_LENGTH, Link
from .corpora.base import BadPair, LineRange, PairOrBad
from .corpora.parallel import (
    DEFAULT_MAX_TOKENS,
    ParallelStats,
    check_line_counts,
    count_lines,
    iter_parallel,
    line_index,
)
from .corpora.pharaoh import read_pharaoh
from .errors import (
    AlignmentIndexError,
    ConfigurationError,
    FormatError,
    MismatchError,
    check_count,
    counted,
)
from .tables import atomic_path
from .textio import is_gzip_file, sha256_file
from .tokenizers import CORPUS_TOKENIZERS, DEFAULT_CORPUS_TOKENIZER

_T = TypeVar("_T")


class StageProgress(Protocol):
    """A progress display of a pipeline stage, tqdm-style: it yields `items` while it shows the
    stage's name `desc` and, when known, their `total` (``pivot_paraphrases(progress=...)``).
    Unlike :data:`paralign.workers.Progress`, which takes the items alone."""

    def __call__(self, items: Iterable[_T], desc: str, total: int | None = None, /) -> Iterable[_T]: ...


def no_progress(items: Iterable[_T], desc: str = "", total: int | None = None, /) -> Iterable[_T]:
    """A :class:`StageProgress` that shows nothing."""
    return items


@dataclass(frozen=True, slots=True)
class PivotOptions:
    """Every knob of the pivot and monolingual pipelines (each stage's, :data:`STAGE_OPTIONS`,
    part of that stage's fingerprint in a work directory)."""

    max_length: int = MAX_PHRASE_LENGTH
    symmetrization: str = "grow-diag-final-and"
    threshold: float = 0.01
    top_k: int | None = None
    min_count: int = 1  # drop rows supported by fewer phrase-pair occurrences (output stage only)
    chunk_size: int = 5000
    lowercase: bool = True
    tokenizer: str = DEFAULT_CORPUS_TOKENIZER
    foreign_tokenizer: str | None = None  # None: same as `tokenizer`
    max_tokens: int = DEFAULT_MAX_TOKENS
    max_length_ratio: float | None = None  # skip pairs whose token-length ratio exceeds this
    encoding_errors: str = "strict"
    min_translation_prob: float = 0.001
    eflomal_model: int = 3
    eflomal_iterations: int | None = None
    align_chunk: int | None = None  # align corpora longer than this in chunks (shared priors)

    def __post_init__(self) -> None:
        check_symmetrization(self.symmetrization)
        for name in ("max_length", "chunk_size", "min_count", "align_chunk", "top_k"):  # 2.5 passed `< 1`
            if getattr(self, name) is not None or name not in ("align_chunk", "top_k"):  # those two: None is none
                check_count(getattr(self, name), name)
        if not isinstance(self.threshold, Real) or isinstance(self.threshold, bool):
            raise ConfigurationError(f"threshold must be a probability in [0, 1], not {self.threshold!r}")
        if not 0 <= self.min_translation_prob < 1:
            raise ConfigurationError(f"min_translation_prob must be in [0, 1), got {self.min_translation_prob}")
        if self.max_length_ratio is not None and not 1 <= self.max_length_ratio < math.inf:
            raise ConfigurationError(f"max_length_ratio must be a number >= 1, got {self.max_length_ratio}")
        if not 0 <= self.threshold <= 1:  # NaN too: the output filter p >= nan kept no row
            raise ConfigurationError(f"threshold must be a probability in [0, 1], got {self.threshold}")
        for name in ("tokenizer", "foreign_tokenizer"):
            if getattr(self, name) not in (*CORPUS_TOKENIZERS, *((None,) if name == "foreign_tokenizer" else ())):
                raise ConfigurationError(
                    f"unknown {name} {getattr(self, name)!r}: use one of {', '.join(CORPUS_TOKENIZERS)}")
        if self.encoding_errors not in ("strict", "replace"):
            raise ConfigurationError(f"encoding_errors must be 'strict' or 'replace', got {self.encoding_errors!r}")
        if self.eflomal_model not in (1, 2, 3) or (self.eflomal_iterations is not None and self.eflomal_iterations < 1):
            raise ConfigurationError(f"eflomal_model must be 1, 2 or 3 and eflomal_iterations None or >= 1, got "
                                     f"{self.eflomal_model} and {self.eflomal_iterations}")

    def of_stage(self, stage: str) -> dict[str, Any]:
        """The options that `stage` of :data:`STAGE_OPTIONS` reads (part of its fingerprint in
        a work directory: another value recomputes that stage and those after it)."""
        return {name: getattr(self, name) for name in STAGE_OPTIONS[stage]}


#: Which stage reads each option of `PivotOptions`: "prepare" (reading and tokenising),
#: "align" (eflomal's, only when it aligns), "extract" (the chunks' counts), "pairs" (the summed
#: pairs: the pivot's pruning; the monolingual table has none) and "output" (the filters, run
#: every time).  Every option is in one, so a work directory never reuses what an option changed.
STAGE_OPTIONS: dict[str, tuple[str, ...]] = {
    "prepare": ("lowercase", "tokenizer", "foreign_tokenizer", "max_tokens", "max_length_ratio", "encoding_errors"),
    "align": ("symmetrization", "eflomal_model", "eflomal_iterations", "align_chunk"),
    "extract": ("max_length", "chunk_size"),
    "pairs": ("min_translation_prob",),
    "output": ("threshold", "top_k", "min_count"),
}


#: Messages of bad lines of a given alignment file kept for the report (all are counted).
KEPT_ERRORS = 20


@dataclass(slots=True)
class GivenAlignment:
    """A Pharaoh file given for a corpus instead of aligning it (`i-j` links, 0-based; `i?j`
    possible links count as links), read beside the corpus through `corpora.pharaoh`.

    `links(line, n, m)` gives a line's links, or None when the line is not Pharaoh or a link
    lies outside its n and m tokens: that line is counted in `bad` and its message
    (`file:line: reason`) kept in `errors` (the first `KEPT_ERRORS`).  Of the lines with links,
    `linked` counts them and `ends_unlinked` those that link the last token of neither sentence:
    most of them, where an aligner links nearly every last token, says that the links index
    other tokens than these (:func:`other_tokens_warning`); so does `outside`, the bad lines
    with a link past their tokens, when they are most of the lines with links.  `name` is how the messages name
    the file (default: `path`; a worker reads the absolute path of the name the user gave).
    """

    path: str
    sha256: str = ""
    lines: int = 0
    bad: int = 0
    errors: list[str] = field(default_factory=list)
    linked: int = 0
    ends_unlinked: int = 0
    outside: int = 0
    name: str = ""

    def __post_init__(self) -> None:
        self.name = self.name or self.path

    @classmethod
    def open(cls, path: str | Path) -> GivenAlignment:
        """Check that `path` is a readable file; note its SHA-256 and its number of lines."""
        return cls(str(path), sha256_file(path), count_lines(path))

    def items(self, lines: LineRange | None = None) -> Iterator[PairOrBad]:
        """One item per line of the file (or of `lines`), in order (see `corpora.pharaoh.read_pharaoh`)."""
        return read_pharaoh(self.path, self.name, lines=lines)

    def links(self, line: PairOrBad, source_length: int, target_length: int) -> frozenset[Link] | None:
        """All links of `line` if it fits sentences of these lengths; else None (counted, reported)."""
        if isinstance(line, BadPair):
            error: Exception = line.error
        else:
            try:
                links = line.alignment.validate(source_length, target_length, source=self.name, line=line.line).possible
            except AlignmentIndexError as exc:
                error = exc
                self.outside += 1
            else:
                if links:
                    self.linked += 1
                    if not any(i == source_length - 1 or j == target_length - 1 for i, j in links):
                        self.ends_unlinked += 1
                return links
        self.bad += 1
        if len(self.errors) < KEPT_ERRORS:
            self.errors.append(str(error))
        return None

    def to_dict(self) -> dict[str, Any]:
        """The report's record: given, which file (path and SHA-256), lines, bad lines, linked
        lines and those of them that link neither last token, lines with a link past their tokens."""
        return {"kind": "given", "file": self.path, "sha256": self.sha256, "lines": self.lines,
                "bad_lines": self.bad, "errors": list(self.errors), "linked_lines": self.linked,
                "ends_unlinked": self.ends_unlinked, "outside_lines": self.outside}


#: The fewest linked lines of a given alignment that :func:`other_tokens_warning` judges.
MIN_LINKED_TO_JUDGE = 20


def other_tokens_warning(record: dict[str, Any], tokenizer: str) -> str | None:
    """A warning when a given alignment (its report `record`) seems to index other tokens than
    `tokenizer` gives: more than half of its lines with links have a link past their tokens
    (links written for regex tokens and read as white-space ones: each such line was skipped
    and the first few named, but nothing said why so many), or more than half of its linked
    lines link the last token of neither sentence (eflomal's links reach one in 99.75% of
    Multi30k's lines; links written for white-space tokens and read as regex ones in 5%: such
    links fit, so nothing else says so). None when the file looks right, or has fewer than
    MIN_LINKED_TO_JUDGE lines with links."""
    linked, unlinked = record.get("linked_lines", 0), record.get("ends_unlinked", 0)
    outside = record.get("outside_lines", 0)
    if linked + outside >= MIN_LINKED_TO_JUDGE and 2 * outside > linked + outside:
        found = (f"{outside} of {linked + outside} lines with links have a link past the tokens of their "
                 f"sentences as --tokenizer {tokenizer} splits them (those lines skipped)")
    elif linked >= MIN_LINKED_TO_JUDGE and 2 * unlinked > linked:
        found = (f"in {unlinked} of {linked} linked lines no link reaches the last token of either sentence "
                 f"as --tokenizer {tokenizer} splits them")
    else:
        return None
    return (f"{record.get('file')}: {found}: were the links written for other tokens? (word-align writes "
            "them for its --tokenizer and --target-tokenizer, regex by default as here)")


def ratio_ok(a: int, b: int, ratio: float | None) -> bool:
    return ratio is None or max(a, b) <= ratio * max(1, min(a, b))


def prepare_parallel(
    english: str | Path,
    foreign: str | Path,
    directory: Path,
    options: PivotOptions,
    alignment: str | Path | None = None,
    progress: StageProgress = no_progress,
) -> dict[str, Any]:
    """Stage 1: checked streaming read, tokenisation, token files `en.tok` and `f.tok`
    (`progress` counts the pairs written, as "prepare pairs").

    With `alignment` (a Pharaoh file holding one line per corpus line, whose indexes refer to
    the tokens written here), also `align.txt`, the links of the pairs written; a pair whose
    line is not Pharaoh or does not fit its tokens is skipped and reported (`GivenAlignment`).
    A file with another number of lines than the corpus is a MismatchError naming both.
    Returns the reading statistics (`ParallelStats.to_dict`), with "alignment" when given.
    """
    stats = ParallelStats()
    given = None if alignment is None else GivenAlignment.open(alignment)
    if given is not None:
        check_alignment_lines(given, english, foreign, count_lines(english))
    rows = progress(_prepared_rows(english, foreign, options, stats, given), "prepare pairs")
    _write_token_files(directory, rows, with_links=given is not None)
    return prepared_info(stats, given)


def check_alignment_lines(given: GivenAlignment, english: str | Path, foreign: str | Path, corpus_lines: int) -> None:
    """MismatchError naming both files when the alignment file has another number of lines."""
    if corpus_lines != given.lines:
        raise MismatchError(
            f"alignment file {given.path} has {counted(given.lines, 'line')} but "
            f"corpus {english} has "
            f"{corpus_lines} (and {foreign} should too): give one Pharaoh line per corpus line"
        )


def _prepared_rows(
    english: str | Path, foreign: str | Path, options: PivotOptions, stats: ParallelStats,
    given: GivenAlignment | None, lines: tuple[LineRange, ...] | None = None, names: tuple[str, str] | None = None,
) -> Iterator[tuple[str, str, frozenset[Link] | None]]:
    """The usable pairs of a parallel corpus (or of the run `lines` of its english, foreign
    and alignment files), tokenised: (english tokens, foreign tokens, given links or None).
    Reading skips are counted in `stats` (as `iter_parallel` does), and so are pairs with no
    token on a side (empty) or more than `max_tokens` tokens, or, when eflomal aligns them, more
    than it aligns (too long: `aligners.eflomal.alignable`, `token_limit`: the tokens counted
    are those phrases are extracted from); pairs dropped by the length ratio in `stats.filtered`, bad
    alignment lines in `given`;
    `names`: how errors name the english and foreign files (`iter_parallel`)."""
    foreign_tokenizer = options.foreign_tokenizer or options.tokenizer
    pairs = iter_parallel(  # max_tokens counts the tokens below (token_limit), not white-space ones
        english, foreign, max_tokens=0, errors=options.encoding_errors,
        stats=stats, warn=False, keep_skipped=given is not None, lines=None if lines is None else (lines[0], lines[1]),
        names=names,
    )
    links_in: Iterator[PairOrBad | None] = (given.items(None if lines is None else lines[2]) if given
                                             else itertools.repeat(None))
    limit = token_limit(options.max_tokens, eflomal_aligns=given is None)
    # strict=False: the line counts are checked by the caller (and by iter_parallel)
    for item, line in zip(pairs, links_in, strict=False):
        if not item.source:  # an empty or over-long pair kept in place (counted by the reader)
            continue
        e = tokenize(item.source, options.tokenizer, options.lowercase)
        f = tokenize(item.target, foreign_tokenizer, options.lowercase)
        if not alignable(e, f, stats, item.line, limit):
            continue  # no token on a side (empty), or more than max_tokens or eflomal aligns (too long)
        if not ratio_ok(len(e), len(f), options.max_length_ratio):
            stats.filtered += 1
            continue
        links = None if given is None or line is None else given.links(line, len(e), len(f))  # line: given's
        if given is None or links is not None:
            yield " ".join(e), " ".join(f), links


def prepared_info(stats: ParallelStats, given: GivenAlignment | None) -> dict[str, Any]:
    """The report of a prepared corpus (`ParallelStats.to_dict`, with "alignment" when given),
    its kept pairs net of those filtered and of bad alignment lines; FormatError when none is
    left (a table of nothing is an error, not a result)."""
    stats.kept -= stats.filtered + (given.bad if given else 0)
    if stats.kept <= 0:  # each reason counted, and a bad alignment line shown (its warning comes with a table)
        reasons = f"{stats.empty} empty, {stats.too_long} over-long, {stats.filtered} filtered by length ratio"
        if given is not None:
            reasons += f", {given.bad} with a bad alignment line"
            reasons += f" (the first: {given.errors[0]})" if given.errors else ""
            if given.outside:
                reasons += (f"; {given.outside} of them with a link past their tokens: were the links written for "
                            "other tokens (another --tokenizer)?")
        raise FormatError(f"no usable line pair in {stats.source_path} / {stats.target_path}: "
                          f"{stats.lines} lines: {reasons}")
    info = stats.to_dict()
    if given is not None:
        info["alignment"] = given.to_dict()
    return info


@dataclass(frozen=True, slots=True)
class PreparedChunk:
    """One chunk of a corpus with a given alignment, read, checked, tokenised and counted by
    one worker (`paralign.pivot.prepare_chunk`): stage 1 and stage 3 in one task, so no process reads
    the whole corpus.  `files` are the user's english, foreign and Pharaoh files, absolute (a
    worker runs in a folder of its own), and `names` the same as the user gave them (for the
    messages); `offsets` where line `first_line` starts in each; `lines` how many lines the
    chunk has."""

    files: tuple[str, str, str]
    offsets: tuple[int, int, int]
    lines: int
    first_line: int
    output: str
    options: PivotOptions
    names: tuple[str, str, str]


#: The key of a prepared chunk's Parquet metadata holding what reading it counted.
READ_KEY = b"paralign.read"


def read_chunk(task: PreparedChunk) -> tuple[list[str], list[str], list[str], bytes]:
    """Read, check and tokenise one chunk (on a worker): its english and foreign token lines,
    their Pharaoh lines, and what reading counted (JSON, for the chunk file's metadata under
    `READ_KEY`; see :func:`chunk_info`).  A byte that is not UTF-8 is a FormatError naming the
    file and line, as in the whole-file reader: the readers open the absolute paths
    (`task.files`) and name them as the user gave them (`task.names`)."""
    english, foreign, alignment = task.files
    runs = tuple(LineRange(offset, task.first_line, task.lines) for offset in task.offsets)
    stats = ParallelStats()
    given = GivenAlignment(alignment, name=task.names[2])
    rows = list(_prepared_rows(english, foreign, task.options, stats, given, runs, names=(task.names[0], task.names[1])))
    read = {"stats": asdict(stats), "bad": given.bad, "errors": given.errors,
            "linked": given.linked, "ends_unlinked": given.ends_unlinked, "outside": given.outside}
    return ([e for e, _, _ in rows], [f for _, f, _ in rows], [links_to_pharaoh(links or ()) for _, _, links in rows],
            json.dumps(read).encode("utf-8"))


def read_on_workers(corpus: tuple[str | Path, str | Path], alignment: str | Path | None,
                    local: Collection[str] = ()) -> bool:
    """Whether a corpus is read by the workers, chunk by chunk (`PreparedChunk`): when its
    alignment is given (nothing needs the whole corpus in one process), no file is gzip
    (a worker cannot seek to its chunk in one) and none is in `local` (files only this
    machine sees, such as a copy of stdin, which a remote worker could not open)."""
    if alignment is None:
        return False
    return not any(is_gzip_file(path) or str(path) in local for path in (*corpus, alignment))


def chunked_reads(directory: Path, corpus: tuple[str | Path, str | Path], alignment: str | Path,
                  options: PivotOptions) -> tuple[list[PreparedChunk], GivenAlignment]:
    """Stage 1 of a corpus the workers read: here only the files' line counts are checked
    (MismatchError naming both files) and the byte offsets of every chunk found; each chunk is
    then read, checked, tokenised and counted by one worker (`paralign.pivot.prepare_chunk`,
    which writes the chunk's file in `directory`)."""
    english, foreign = corpus
    # the alignment first (its errors came first before): its line count from its index, not a pass of its own
    align_offsets, align_lines = line_index(alignment, options.chunk_size)
    given = GivenAlignment(str(alignment), sha256_file(alignment), align_lines)
    indexes = [line_index(path, options.chunk_size) for path in (english, foreign)] + [(align_offsets, align_lines)]
    lines = indexes[0][1]
    check_alignment_lines(given, english, foreign, lines)
    check_line_counts(english, foreign, (lines, indexes[1][1]))
    if lines == 0:
        prepared_info(ParallelStats(str(english), str(foreign)), given)  # raises: no usable line pair
    names = (str(english), str(foreign), str(alignment))
    english_file, foreign_file, alignment_file = (os.path.abspath(name) for name in names)  # a worker runs in a folder of its own
    files = (english_file, foreign_file, alignment_file)
    size = options.chunk_size
    tasks = [PreparedChunk(files, offsets, min(size, lines - k * size), k * size + 1,
                           str(directory / f"{k:05d}.parquet"), options, names)
             for k, offsets in enumerate(zip(*(offsets for offsets, _ in indexes), strict=True))]
    return tasks, given


def chunk_info(outputs: Iterable[str], stats: ParallelStats, given: GivenAlignment) -> dict[str, Any]:
    """`prepared_info` of a corpus read in chunks, from what each chunk's file records (in
    order: the kept messages are the first ones of the file)."""
    import pyarrow.parquet as pq

    for path in outputs:
        read = json.loads(pq.read_schema(path).metadata[READ_KEY])
        stats.add(read["stats"])
        given.bad += read["bad"]
        given.linked += read.get("linked", 0)  # not in the chunks of an earlier version
        given.ends_unlinked += read.get("ends_unlinked", 0)
        given.outside += read.get("outside", 0)
        given.errors.extend(read["errors"][: KEPT_ERRORS - len(given.errors)])
    return prepared_info(stats, given)


def prepare_groups(
    groups_path: str | Path,
    directory: Path,
    options: PivotOptions,
    max_groups: int | None = None,
    progress: StageProgress = no_progress,
    alignment: str | Path | None = None,
) -> dict[str, Any]:
    """Stage 1 of the monolingual pipeline: every pair of each group's sentences, tokenised,
    in `en.tok` and `f.tok`; returns {"file": `groups_path`, "groups": groups used, "pairs": pairs written,
    "sentences_too_long": sentences over `max_tokens`, "pairs_filtered": pairs over
    `max_length_ratio`, "skipped_rows": the bad pairs of a JSON groups file}, each left out
    (a bad pair as `lattice stats` leaves it out: :func:`paralign.corpora.groups.alignment_groups`,
    reported as :func:`paralign.metrics.alignment_scores.skipped_rows`, in file order). With
    `max_groups`, only the bad pairs of the groups read (the first `max_groups`, and the groups
    of bad pairs only passed over before the last of them) are reported: those of the groups
    after them are not read (``as_reached``).

    With `alignment` (a Pharaoh file, line i for the i-th pair formed here), also `align.txt`
    as in `prepare_parallel`; its line count must equal the number of pairs (MismatchError).
    """
    from .corpora.groups import iter_groups
    from .metrics.alignment_scores import skipped_rows

    given = None if alignment is None else GivenAlignment.open(alignment)
    links_in = given.items() if given else iter(())
    n_groups = formed = 0
    seen: set[str] = set()
    left_out: Counter[str] = Counter()
    bad: list = []  # the bad pairs of a JSON groups file, left out

    def rows() -> Iterator[tuple[str, str, frozenset[Link] | None]]:
        nonlocal n_groups, formed
        # open_text raises FormatError naming the file and line of a byte that is not UTF-8
        groups = iter_groups(groups_path, skipped=bad, as_reached=True)
        for gid, a, b in _group_pairs(groups, options, max_groups, left_out):
            if gid not in seen:
                seen.add(gid)
                n_groups += 1
            formed += 1
            links = None
            if given is not None:
                line = next(links_in, None)  # None: too few lines, an error once all pairs are counted
                links = None if line is None else given.links(line, len(a.split()), len(b.split()))
                if links is None:
                    continue
            yield a, b, links
        if given is not None and formed != given.lines:
            raise MismatchError(
                f"alignment file {given.path} has {counted(given.lines, 'line')} "
                f"but the groups of "
                f"{groups_path} form {formed} sentence pairs: give one Pharaoh line per pair"
            )

    count = _write_token_files(directory, progress(rows(), "prepare pairs"), with_links=given is not None)
    if count == 0:  # nothing to align: a table of nothing is an error, not a result
        raise FormatError(
            f"no sentence pair in {groups_path}: no group holds two different usable sentences"
        )
    info: dict[str, Any] = {"file": str(groups_path), "groups": n_groups, "pairs": count, "sentences_too_long": left_out["too_long"],
                            "pairs_filtered": left_out["filtered"],
                            "skipped_rows": skipped_rows(sorted(bad, key=lambda found: found[0]))}
    if given is not None:
        info["alignment"] = given.to_dict()
    return info


def _write_token_files(
    directory: Path, rows: Iterable[tuple[str, str, frozenset[Link] | None]], *, with_links: bool
) -> int:
    """Write `en.tok` and `f.tok` (and `align.txt` `with_links`), one row a line, each renamed
    into place only when all rows are written; return the number of rows."""
    names = ("en.tok", "f.tok", "align.txt")[: 3 if with_links else 2]
    count = 0
    with ExitStack() as stack:
        outs = [
            stack.enter_context(open(stack.enter_context(atomic_path(directory / name)), "w", encoding="utf-8"))
            for name in names
        ]
        for e, f, links in rows:
            outs[0].write(e + "\n")
            outs[1].write(f + "\n")
            if with_links:
                outs[2].write(links_to_pharaoh(links or ()) + "\n")
            count += 1
    return count


def _group_pairs(
    groups: Iterable[Any], options: PivotOptions, max_groups: int | None, left_out: Counter[str]
) -> Iterator[tuple[str, str, str]]:
    """All sentence pairs (i < j) within each group, tokenised: (group id, tokens a, tokens b);
    the sentences over `max_tokens` and the pairs over `max_length_ratio` counted in `left_out`
    ("too_long", "filtered")."""
    for group in itertools.islice(groups, max_groups):
        sentences = []
        for sentence in group.sentences:
            tokens = tokenize(sentence, options.tokenizer, options.lowercase)
            if tokens and options.max_tokens > 0 and len(tokens) > options.max_tokens:
                left_out["too_long"] += 1
            elif tokens:
                sentences.append(" ".join(tokens))
        for a, b in itertools.combinations(dict.fromkeys(sentences), 2):
            if ratio_ok(len(a.split()), len(b.split()), options.max_length_ratio):
                yield group.id, a, b
            else:
                left_out["filtered"] += 1
