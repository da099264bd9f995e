"""WMT21 news into-English data: sources, references A/B, system outputs and human DA scores.

Layout (``mt/wmt21-toEnglish`` under the data folder; see its README.txt):
``txt/{sources,references,system-outputs}/newstest2021.<lp>.{src.<xx>,ref.<R>.en,hyp.<NAME>.en}``
and ``humaneval/ad-sys-ranking-<lp>-z-names.csv`` (space separated, no header:
``RAW.SCR Z.SCR N N.ALL SYS_ID NAME``; a first line of those names is skipped). Traps handled here: system names contain dots
(``Allegro.eu``), the humans' SYS_ID differs from the file name (``Nemo.7`` is ``NVIDIA-NeMo``:
we join on NAME), HUMAN rows are a reference scored as a system (left out by default), and
lines are split on ``\\n`` only (never on a stray ``\\r`` or U+2028 inside a segment: a lone CR
reads as a space, CRLF as LF, and a file with CR-only line ends is refused, as in every reader:
:mod:`paralign.line_ends`).

Segment-level DA (``humaneval/ad-seg-scores-<lp>.csv``, header ``SYS SID RAW.SCR Z.SCR N``) keys
segments by SID, which is **not** the line number: SIDs count through the documents sorted by
id, the txt files keep test-set order. ``humaneval/seg-line-map-<lp>.tsv`` (TAB, header
``SID line doc_id``, 1-based lines) maps SID to line; :func:`load_segment_scores` reads both.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import (
    FormatError,
    MismatchError,
    ParalignError,
    ResourceMissingError,
    counted,
    refuse_repeated_stream,
)
from ..line_ends import cr_only_error, lf_text
from ..settings import data_dir
from ..textio import (
    bad_byte,
    decoded,
    finite_field,
    int_field,
    is_number_field,
    open_binary,
    reading,
    strip_bom,
)
from .base import BadPair
from .outputs import read_outputs

PREFIX = "newstest2021"
HUMAN = "HUMAN"


def wmt_dir(root: str | Path | None = None) -> Path:
    """The WMT21 folder: `root` itself when it holds txt/, else <data>/mt/wmt21-toEnglish."""
    if root is not None:
        path = Path(root)
        if (path / "txt").is_dir():
            return path
        if (path / "mt" / "wmt21-toEnglish" / "txt").is_dir():
            return path / "mt" / "wmt21-toEnglish"
        raise ResourceMissingError(f"{path}: not a WMT21 folder (no txt/ inside)")
    base = data_dir()
    if base is None or not (base / "mt" / "wmt21-toEnglish" / "txt").is_dir():
        raise ResourceMissingError(
            "WMT21 data not found: set PARALIGN_DATA to the folder holding mt/wmt21-toEnglish")
    return base / "mt" / "wmt21-toEnglish"


def iter_lines(path: str | Path) -> Iterator[str]:
    """Stream the segments of a one-segment-per-line UTF-8 file (split on LF only, CRLF too, a
    lone CR read as a space; FormatError at line 1 for CR-only line ends). A byte-order mark
    starting the file is dropped (:func:`paralign.textio.strip_bom`), as ``paraeval -r/-i``
    drop it: it joined the first segment's first word, and made a human-score table's first
    line a bad number or not its header."""
    with reading(str(path)), open_binary(path) as handle:
        number = 0
        while True:
            raw = handle.readline()
            if not raw:
                return
            number += 1
            if number == 1 and (error := cr_only_error(raw, str(path))) is not None:
                raise error
            text, fault = decoded(raw)
            if text is None or fault >= 0:
                raise FormatError(bad_byte(raw, fault)[1], source=str(path), line=number)
            text = lf_text(strip_bom(text) if number == 1 else text)
            yield text[:-1] if text.endswith("\n") else text


def language_pairs(root: str | Path | None = None) -> list[str]:
    """Pairs with references present, e.g. ['cs-en', 'de-en', 'ru-en']."""
    refs = wmt_dir(root) / "txt" / "references"
    return sorted({p.name.split(".")[1] for p in refs.glob(f"{PREFIX}.*-en.ref.*.en")})


def reference_files(root: str | Path | None, pair: str) -> dict[str, Path]:
    """Reference label ('A', 'B') -> file."""
    folder = wmt_dir(root) / "txt" / "references"
    prefix = f"{PREFIX}.{pair}.ref."
    return {p.name[len(prefix):-3]: p for p in sorted(folder.glob(f"{prefix}*.en"))}


def system_files(root: str | Path | None, pair: str) -> dict[str, Path]:
    """System name (the part between '.hyp.' and the final '.en'; may contain dots) -> file."""
    folder = wmt_dir(root) / "txt" / "system-outputs"
    prefix = f"{PREFIX}.{pair}.hyp."
    return {p.name[len(prefix):-3]: p for p in sorted(folder.glob(f"{prefix}*.en"))}


def data_file(path: Path, missing: str) -> Path:
    """`path`, a file of the WMT folder that a loader reads; ResourceMissingError (``path:
    missing``) when nothing is there: the folder lacks data, as a corpus not installed does. A
    path that is there but cannot be opened (a directory, no permission) is left to the reader's
    InputFileError (``is a directory, not a file``), as for every input (a usage error, exit 2):
    a human-scores file that was a directory was "not found", exit 1, where a reference that was
    one was exit 2."""
    if not path.exists():
        raise ResourceMissingError(f"{path}: {missing}")
    return path


@dataclass(frozen=True, slots=True)
class HumanScore:
    """One row of ad-sys-ranking-<lp>-z-names.csv."""

    name: str
    sys_id: str
    raw: float
    z: float
    n: int
    n_all: int


#: The fields of a human-scores file (ad-sys-ranking-<lp>-z-names.csv; WMT21's has no header line).
HUMAN_FIELDS = ("RAW.SCR", "Z.SCR", "N", "N.ALL", "SYS_ID", "NAME")


def _human_header(line: str, source: str, number: int) -> bool:
    """Whether `line`, the first that is not blank of a human-scores file, is a header: its
    fields :data:`HUMAN_FIELDS` (any case), skipped as the other readers skip theirs; FormatError
    naming the line for one of other names (its first four fields not numbers). Either was
    ``bad number (could not convert string to float: 'RAW.SCR')``, no word of a header."""
    fields = line.split()
    if tuple(field.upper() for field in fields) == HUMAN_FIELDS:
        return True
    if len(fields) >= 4 and not any(is_number_field(field) for field in fields[:4]):
        raise FormatError(f"a header line of other fields ({' '.join(fields)!r}) than {' '.join(HUMAN_FIELDS)!r}: "
                          "the file may start with that header, or with a row", source=source, line=number)
    return False


def human_scores_name(pair: str) -> str:
    """The name of `pair`'s system-level human scores file, under humaneval/ (messages name it)."""
    return f"ad-sys-ranking-{pair}-z-names.csv"


def load_human_scores(
    root: str | Path | None, pair: str, include_human: bool = False,
) -> dict[str, HumanScore]:
    """System-level DA scores keyed by system NAME (HUMAN rows left out unless asked for); a
    first line that is a header (:func:`_human_header`) is skipped. FormatError naming the file when it has no row (empty, blank lines): every output was
    reported as having "no human score", and the run ended with "no system has both an output
    file and a human score", not a word about the file."""
    path = data_file(wmt_dir(root) / "humaneval" / human_scores_name(pair), f"human scores for {pair} not found")
    out: dict[str, HumanScore] = {}
    rows = 0
    for number, line in enumerate(iter_lines(path), start=1):
        if not line.strip() or (not rows and _human_header(line, str(path), number)):
            continue
        rows += 1
        fields = line.split(None, 5)
        if len(fields) != 6:
            raise FormatError(f"expected 6 fields, {' '.join(HUMAN_FIELDS)!r}, found {len(fields)}",
                              source=str(path), line=number)
        try:
            score = HumanScore(fields[5].strip(), fields[4], finite_field(fields[0]), finite_field(fields[1]),
                               int_field(fields[2]), int_field(fields[3]))
        except ValueError as exc:
            raise FormatError(f"bad number ({exc})", source=str(path), line=number) from exc
        if score.name == HUMAN and not include_human:
            continue
        if score.name in out:
            raise FormatError(f"system {score.name!r} listed twice", source=str(path), line=number)
        other = next((name for name, kept in out.items() if kept.sys_id == score.sys_id), None)
        if other is not None:  # segment scores are keyed by SYS_ID: one system's would be the other's
            raise FormatError(f"SYS_ID {score.sys_id!r} of system {score.name!r} is that of {other!r} too",
                              source=str(path), line=number)
        out[score.name] = score
    if not rows:
        raise FormatError(f"no human scores for {pair} (expected lines {' '.join(HUMAN_FIELDS)!r})",
                          source=str(path))
    return out


@dataclass(frozen=True, slots=True)
class SegmentScore:
    """One judged segment of one system (a row of ad-seg-scores-<lp>.csv, SID mapped to a line)."""

    system: str  #: system NAME (as in the txt file names), not the humans' SYS_ID
    line: int  #: 0-based line of the txt files (from seg-line-map-<lp>.tsv, never the SID)
    sid: int
    raw: float
    z: float
    n: int  #: judgments averaged


def _table_rows(path: Path, header: str, width: int) -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of a whitespace table whose first line starts with `header`;
    FormatError naming the file when it has no row (empty, or a header alone): an empty line map
    was read as no SID, and the error named the segment scores' first row ("SID 1 is not in
    seg-line-map-de-en.tsv"), not the map."""
    rows = 0
    data_file(path, "not found")
    for number, line in enumerate(iter_lines(path), start=1):
        if number == 1:
            if not line.startswith(header):
                raise FormatError(f"expected the header {header!r}", source=str(path), line=1)
            continue
        if not line.strip():
            continue
        fields = line.split()
        if len(fields) < width:
            raise FormatError(f"expected {width} or more fields, found {len(fields)}", source=str(path), line=number)
        rows += 1
        yield number, fields
    if not rows:
        raise FormatError(f"no rows (expected a header starting {header!r}, then a row of {width} or more fields "
                          "a line)", source=str(path))


def _segment_map(root: str | Path | None, pair: str) -> dict[int, tuple[int, int]]:
    """SID -> (0-based txt line, the line of the map that gives it), from
    humaneval/seg-line-map-<lp>.tsv (1-based lines there); where each came from is for a message
    about a line the txt files do not have."""
    path = _segment_map_path(root, pair)
    out: dict[int, tuple[int, int]] = {}
    sids: dict[int, int] = {}  # txt line -> the SID mapped to it
    for number, fields in _table_rows(path, "SID", 2):
        try:
            sid, line = int_field(fields[0]), int_field(fields[1])
        except ValueError as exc:
            raise FormatError(f"bad number ({exc})", source=str(path), line=number) from exc
        if sid in out:
            raise FormatError(f"SID {sid} repeated (first at line {out[sid][1]})", source=str(path), line=number)
        if line < 1:
            raise FormatError(f"line {line} of SID {sid}: the map's lines count from 1", source=str(path),
                              line=number)
        if line in sids:
            other = sids[line]
            raise FormatError(f"SID {sid} maps to line {line}, as SID {other} does (line {out[other][1]}): two SIDs "
                              "map to the same line", source=str(path), line=number)
        sids[line] = sid
        out[sid] = (line - 1, number)
    return out


def _segment_map_path(root: str | Path | None, pair: str) -> Path:
    return wmt_dir(root) / "humaneval" / f"seg-line-map-{pair}.tsv"


def segment_scores_path(root: str | Path | None, pair: str) -> Path:
    """humaneval/ad-seg-scores-<lp>.csv: the segment DA scores, keyed by SYS_ID and SID."""
    return wmt_dir(root) / "humaneval" / f"ad-seg-scores-{pair}.csv"


def load_segment_scores(
    root: str | Path | None, pair: str, human: dict[str, HumanScore] | None = None,
    n_lines: int | None = None,
) -> tuple[SegmentScore, ...]:
    """Segment DA scores of the systems in `human` (default: every ranked system but HUMAN),
    keyed by system NAME and txt line through the SID -> line map. With `n_lines` (the txt
    files' lines), a judged SID the map puts past them is a MismatchError naming the map's line."""
    if human is None:
        human = load_human_scores(root, pair)
    names = {score.sys_id: name for name, score in human.items()}
    lines = _segment_map(root, pair)
    path = segment_scores_path(root, pair)
    out: list[SegmentScore] = []
    seen: set[tuple[str, int]] = set()
    for number, fields in _table_rows(path, "SYS", 5):
        name = names.get(fields[0])
        if name is None:
            continue
        try:
            sid, raw, z, n = int_field(fields[1]), finite_field(fields[2]), finite_field(fields[3]), int_field(fields[4])
        except ValueError as exc:
            raise FormatError(f"bad number ({exc})", source=str(path), line=number) from exc
        if sid not in lines:
            raise FormatError(f"SID {sid} is not in seg-line-map-{pair}.tsv", source=str(path),
                              line=number)
        if (name, sid) in seen:
            raise FormatError(f"{fields[0]} SID {sid} listed twice", source=str(path), line=number)
        line, row = lines[sid]
        if n_lines is not None and line >= n_lines:
            raise MismatchError(f"SID {sid} is line {line + 1}, past the {n_lines} lines of the txt files",
                                source=str(_segment_map_path(root, pair)), line=row)
        seen.add((name, sid))
        out.append(SegmentScore(name, line, sid, raw, z, n))
    if human and not out:  # no judgment to correlate: the file is another ranking's, or HUMAN's only
        raise FormatError(f"no segment scores of the {counted(len(human), 'system')} scored "
                          f"(SYS {', '.join(sorted(names))})", source=str(path))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class SkippedSystem:
    """A human-scored system whose output file could not be read (another number of lines than
    the references, a byte that is not UTF-8, no file to open), left out of the scores: its
    `file`, the `line` at fault when one is (None for the whole file) and the `reason`."""

    name: str
    file: str
    reason: str
    line: int | None = None

    @classmethod
    def of(cls, name: str, path: Path, error: ParalignError) -> SkippedSystem:
        """From the error reading the file raised (its message without the `file:line: `)."""
        bad = BadPair(name, error)
        return cls(name, bad.source or str(path), bad.reason, bad.line)

    def to_dict(self) -> dict[str, object]:
        return {"system": self.name, "file": self.file, "line": self.line, "reason": self.reason}

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.reason}"


@dataclass(frozen=True, slots=True)
class WMTPair:
    """Everything for one language pair, aligned segment by segment."""

    pair: str
    references: dict[str, tuple[str, ...]]  # label -> segments
    systems: dict[str, tuple[str, ...]]  # name -> segments (only systems with human scores)
    human: dict[str, HumanScore]  # name -> DA score (same keys as systems)
    unscored: tuple[str, ...] = ()  # outputs without a human score (left out)
    missing: tuple[str, ...] = ()  # human-scored systems without an output file
    #: segment DA of the systems above (empty unless loaded with ``segments=True``)
    segment_scores: tuple[SegmentScore, ...] = ()
    #: human-scored systems whose output file could not be read (left out, in file order)
    skipped: tuple[SkippedSystem, ...] = ()

    def __len__(self) -> int:
        return len(next(iter(self.references.values())))

    @property
    def unjudged(self) -> tuple[str, ...]:
        """Systems with no segment DA score (none when the segment scores were not loaded): their
        SYS_ID has no row in ad-seg-scores, so the segment level leaves them out."""
        judged = {score.system for score in self.segment_scores}
        return tuple(name for name in self.systems if judged and name not in judged)

    def case_twin(self, name: str) -> str | None:
        """The name of :attr:`unscored` that differs from `name` of :attr:`missing` only in case, or
        the other way round; None when there is none. Such a pair is left out on both sides (not
        matched: the humans' NAME and the file's name must be one), each warning naming the other:
        they said "no output" and "no human score" with no word that the two were alike."""
        others = self.unscored if name in self.missing else self.missing if name in self.unscored else ()
        return next((other for other in others if other.casefold() == name.casefold()), None)

    @property
    def case_twins(self) -> tuple[tuple[str, str], ...]:
        """(human-scored name, output's name) of each name of :attr:`missing` that one of
        :attr:`unscored` differs from only in case (:meth:`case_twin`), in the order of
        :attr:`missing`: what ``meta-eval``'s warnings say of them, as data (``case_twins`` in its JSON)."""
        return tuple((name, twin) for name in self.missing if (twin := self.case_twin(name)) is not None)

    def reference_streams(self, labels: Sequence[str]) -> list[tuple[str, ...]]:
        """Reference streams in sacrebleu layout for the given labels."""
        try:
            return [self.references[label] for label in labels]
        except KeyError as exc:
            raise MismatchError(
                f"{self.pair}: no reference {exc.args[0]!r} (have {sorted(self.references)})"
            ) from None


def load_wmt(
    root: str | Path | None, pair: str, refs: Sequence[str] | None = None, *,
    segments: bool = False,
) -> WMTPair:
    """Load a pair's references, the outputs of every human-scored system and their DA z-scores
    (and, with `segments`, their segment DA scores: :func:`load_segment_scores`).

    Every file must have as many lines as the first reference. A reference that does not, or
    cannot be read, raises MismatchError (FormatError, InputFileError) naming the file (and the
    first reference, whose length it differs from: :func:`_check_reference_sets`); two reference
    sets of the same lines raise SameReferenceError naming both (:func:`_check_distinct_sets`). A system
    output that does not, or cannot be read, is left out and recorded in `skipped`
    (:class:`SkippedSystem`, naming the file and line): one bad output must not lose the other
    systems' figures (the caller reports it, and decides when too few systems are left). When
    two or more outputs are read and all have one length, not the first reference's, one
    MismatchError names the reference (:func:`paralign.corpora.outputs.read_outputs`, the rule
    ``paralign paraeval`` reads its -i files by).
    """
    ref_paths = reference_files(root, pair)
    if not ref_paths:
        raise ResourceMissingError(f"no references for {pair} under {wmt_dir(root)}")
    labels = list(refs) if refs else sorted(ref_paths)
    references: dict[str, tuple[str, ...]] = {}
    for label in labels:
        if label not in ref_paths:
            raise MismatchError(f"{pair}: no reference {label!r} (have {sorted(ref_paths)})")
        references[label] = tuple(iter_lines(ref_paths[label]))
        _check_reference_sets(references, ref_paths)
    _check_distinct_sets(references, ref_paths)
    human = load_human_scores(root, pair)
    outputs = system_files(root, pair)
    unscored = [name for name in outputs if name not in human]
    count = len(references[labels[0]])
    systems, bad = read_outputs({name: path for name, path in outputs.items() if name in human},
                                _read_output, count, str(ref_paths[labels[0]]),
                                lambda name, lines: _length_error(lines, count, outputs[name]))
    skipped = [SkippedSystem.of(name, outputs[name], error) for name, error in bad.items()]  # in file order
    missing = tuple(sorted(set(human) - set(systems) - {s.name for s in skipped}))
    scored = {n: human[n] for n in systems}
    judged = load_segment_scores(root, pair, scored, count) if segments else ()
    return WMTPair(pair, references, systems, scored, tuple(unscored), missing, judged, tuple(skipped))


def _check_distinct_sets(references: dict[str, tuple[str, ...]], paths: dict[str, Path]) -> None:
    """SameReferenceError naming the two reference sets of `references` (label -> lines) that
    hold the same lines (:func:`paralign.errors.repeated_stream`): a folder whose ref B is a copy
    of ref A was scored as two references, BLEU signed nrefs:2, and ParaEval refused the
    streams without naming a file; as ``--refs A,A`` is refused."""
    refuse_repeated_stream(list(references.values()),
                           [f"reference {label} ({paths[label]})" for label in references],
                           lambda first, again: f"{again} has the same lines as {first}: give each reference once")


def _read_output(path: Path) -> tuple[str, ...]:
    """A system output's segments."""
    return tuple(iter_lines(path))


def _length_error(lines: tuple[str, ...], count: int, path: Path) -> MismatchError:
    """The error of a file of the pair (`path`: its `lines`) whose length is not the first reference's `count`."""
    return MismatchError(f"{counted(len(lines), 'line')}, expected {count}", source=str(path))


def _check_reference_sets(references: dict[str, tuple[str, ...]], paths: dict[str, Path]) -> None:
    """MismatchError naming the reference set read last of `references` (label -> lines, in the
    order read) and the first, when their lengths differ: it said ``2 lines, expected 3``, not
    which reference expected 3 (``--refs A,B``)."""
    (first, lines), (label, last) = next(iter(references.items())), list(references.items())[-1]
    if len(last) != len(lines):
        raise MismatchError(f"{counted(len(last), 'line')}, but reference {first} ({paths[first]}) has "
                            f"{len(lines)}: the reference sets are not of one test set, or one is cut short",
                            source=str(paths[label]))
