"""Unaligned sentence-pair input: one pair a line (TSV or JSONL), two line-aligned files, and
the sentences of STS/MSRP/plain-text files.

Every reader reports a bad line in its place (line number and reason) instead of stopping, so
output stays aligned with input.

Not for: gold alignments (:mod:`paralign.corpora.alignments`) or labelled STS/MSRP corpora
(:mod:`paralign.corpora.sts`, :mod:`paralign.corpora.msrp`).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..errors import (
    ConfigurationError,
    MismatchError,
    ParalignError,
    counted,
    invalid_json,
    lone_surrogate,
)
from ..line_ends import line_text
from ..textio import is_number_field, open_text, strip_bom, without_bom
from .jsonl import JACANA_KEYS, LINK_KEYS
from .sts import (
    ALIGN_SIDES,
    SCORE_RANGE,
    SIMILARITY_SIDES,
    TABLE_SENTENCES,
    counts_up,
    empty_sides,
    format_of_rows,
    is_msrp_header,
    most_rows_msrp,
    numbered,
    row_layout,
    table_header,
    table_records,
    too_few_fields,
    whole_firsts,
)


@dataclass(frozen=True, slots=True)
class InputPair:
    """One input pair to align, or the reason it could not be read (`error`)."""

    line: int
    source: str | list[str] | None
    target: str | list[str] | None
    id: str | None = None
    error: str | None = None
    origin: str | None = None  #: the file the error is in, when pairs come from two files
    #: both sides are the input's own tokens (JSON token lists, or text split on white space by
    #: ``tokenized``), not spaCy's: ``align`` signs the pair ``tok:none``. False for a gold
    #: record's, which are always on its tokens and sign as a gold file's do (no ``tok``)
    own_tokens: bool = False

    @property
    def own_sides(self) -> tuple[bool, bool]:
        """Whether each side (source, target) is the input's own tokens: both when
        :attr:`own_tokens`; one, for a JSON record giving that side as a token list and the other
        as text (which spaCy tokenises); neither for texts, or a gold record's lists (on its gold's
        tokens). ``align`` signs the pair by them (``tok:none``, ``tok:none/spacy``)."""
        if self.own_tokens:
            return True, True
        source, target = isinstance(self.source, list), isinstance(self.target, list)
        return (False, False) if source and target else (source, target)


#: The longest sentence (characters) a pair may have: the parser needs about 1 GB of memory per
#: 100,000 characters (spaCy's own limit is 1,000,000), so a longer line is reported in its place.
MAX_SENTENCE_CHARS = 100_000


def _tokens(text: Any, tokenized: bool) -> str | list[str]:
    if isinstance(text, list):
        return [str(t) for t in text]
    text = text.strip().lstrip("\ufeff")  # a file's byte-order mark is not part of its first word
    return text.split() if tokenized else text


def _pair(number: int, source: Any, target: Any, tokenized: bool, pair_id: str | None = None,
          names: tuple[str, str] = ALIGN_SIDES) -> InputPair:
    """An InputPair, or an error one when a side (named by `names`) is empty (nothing to align) or
    too long to parse."""
    src, tgt = _tokens(source, tokenized), _tokens(target, tokenized)
    sides = ((names[0], src), (names[1], tgt))
    if (empty := empty_sides(sides)) is not None:  # no word, or white space and invisible characters alone
        return InputPair(number, None, None, pair_id, error=empty)
    long = [side for side, x in sides if (sum(map(len, x)) if isinstance(x, list) else len(x)) > MAX_SENTENCE_CHARS]
    if long:
        return InputPair(number, None, None, pair_id, error=f"{' and '.join(long)} sentence too long "
                         f"(more than {MAX_SENTENCE_CHARS} characters)")
    return InputPair(number, src, tgt, pair_id, own_tokens=isinstance(src, list) and isinstance(tgt, list))


def parse_tsv_line(line: str, number: int, tokenized: bool, names: tuple[str, str] = ALIGN_SIDES) -> InputPair:
    """`source<TAB>target`, or `id<TAB>source<TAB>target` (the id stripped of white space, an
    empty one no id): one line of pairs as ``align`` reads it, and ``similarity`` in its
    ``pairs`` layout (:func:`sentence_pair_rows`), so that a bad line is one message in both,
    naming what is wrong with it: an empty line, a third field that is a number (a gold score
    after the sentences), another count of fields, an empty or too long sentence (:func:`_pair`).
    A byte-order mark starting the line is read past (a file's, as Notepad writes it). Before,
    ``similarity`` had a reader of its own, whose messages for the same lines were others
    (``4 fields, expected 2 TAB-separated sentences``, ``empty sentence``), and a blank line was
    ``1 field`` there. `names` name the sides in messages (:data:`ALIGN_SIDES`, ``similarity``'s
    :data:`.sts.SIMILARITY_SIDES`)."""
    text = line_text(strip_bom(line))
    if not text.strip():
        return InputPair(number, None, None, error="empty line")
    fields = text.split("\t")
    error = _fields_error(fields, names)
    if error is not None:
        return InputPair(number, None, None, error=error)
    pair_id = (fields[0].strip() or None) if len(fields) == 3 else None
    pair = _pair(number, fields[-2], fields[-1], tokenized, pair_id, names)
    if len(fields) == 3 and pair.error == f"empty {names[1]} sentence":
        # "a<TAB>b<TAB>" is three fields: the pair a, b read as an id and a first sentence
        last = names[1] if names == ALIGN_SIDES else f"{names[1]} sentence"  # the target, the second sentence
        pair = replace(pair, error=f"empty {names[1]} sentence (3 fields read as {_three(names)}: "
                                   f"a tab after the {last}?)")
    return pair


def _three(names: tuple[str, str]) -> str:
    """How a line of three fields is read, its sides named by `names`: ``id, source, target``."""
    return f"id, {names[0]}, {names[1]}"


def _fields_error(fields: list[str], names: tuple[str, str] = ALIGN_SIDES) -> str | None:
    """Why a line's TAB-separated `fields` are not a pair as a line of pairs holds one (``s1 TAB
    s2``, ``id TAB s1 TAB s2``), or None: the one rule of :func:`parse_tsv_line` and of the
    sentences of ``--idf-from`` (:func:`iter_sentences_from_file`), which had a rule of its own."""
    if len(fields) == 3 and is_number_field(fields[2]):  # s1, s2, score: s2 was aligned against the score
        return (f"3 fields, the third a number ({fields[2].strip()!r}): 3 fields are read as {_three(names)}; a "
                "gold score after the sentences? give the sentences alone (cut -f1,2), or to similarity a first line "
                "naming the columns sentence1, sentence2 and score")
    if len(fields) not in (2, 3):
        return (f"{counted(len(fields), 'field')}, expected 2 TAB-separated sentences ({', '.join(names)}) or 3 "
                f"fields ({_three(names)}){_csv_hint(fields)}")
    return None


def _csv_hint(fields: list[str]) -> str:
    """How a line of one field holding commas (a CSV file's) is made readable."""
    if len(fields) == 1 and "," in fields[0]:
        return (" (a CSV file? give TAB-separated sentences; similarity also reads a CSV whose first line names "
                "the columns sentence1 and sentence2)")
    return ""


#: Keys that make a JSONL record a gold alignment, whose source/target strings are
#: whitespace-separated tokens that the links index: every key the gold JSONL reader
#: (:mod:`paralign.corpora.jsonl`) reads links from, jacana's ``sureAlign``/``possibleAlign``
#: among them. Before, those two and ``links`` were missing: such a record was read as two texts
#: that spaCy tokenised (``cat's`` two tokens), and its output indexed other tokens than the gold's.
GOLD_LINK_KEYS: tuple[str, ...] = (*LINK_KEYS, *JACANA_KEYS)


def is_json_line(line: str) -> bool:
    """Whether a line of pairs is a JSON record, line by line (``align`` and ``similarity``
    decide alike, so a file mixing both is read alike): a line starting with '{' (white space
    and a byte-order mark aside), or a line without a tab that is a JSON value (``[1, 2]``,
    ``null``): a TSV pair has a tab, so such a line is reported as a record that is not an
    object, not as a line of one field."""
    text = strip_bom(line).strip()
    if text.startswith("{"):
        return True
    if not text or "\t" in line:
        return False
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


#: What a JSON value that is not an object is called in messages.
_JSON_KINDS = {list: "an array", str: "a string", int: "a number", float: "a number", bool: "true or false",
               type(None): "null", dict: "an object"}


#: The keys of a JSON record's two sentences, the first pair found: paralign's own, then those
#: Hugging Face's ``Dataset.to_json`` writes for GLUE and PAWS.
PAIR_KEYS: tuple[tuple[str, str], ...] = (("source", "target"), ("sentence1", "sentence2"))


def parse_jsonl_line(line: str, number: int, tokenized: bool, names: tuple[str, str] = ALIGN_SIDES) -> InputPair:
    """`{"source": ..., "target": ..., ["id": ...]}` (or `"sentence1"` and `"sentence2"`: :data:`PAIR_KEYS`);
    string or token-list values. A record with
    gold links (:data:`GOLD_LINK_KEYS`) keeps its tokens as given (split on white space), so the
    output's indexes are the gold's. A string escape that is half a surrogate pair (no
    character: :func:`paralign.errors.lone_surrogate`) makes the line bad, as a bad byte does.
    A byte-order mark starting the line (a file's, as Notepad writes it) is read past, as
    :func:`is_json_line` reads it: json.loads refused it, so the file's first pair was lost.
    `names` name the sides in messages on them (its keys are named as they are)."""
    text = strip_bom(line)
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        return InputPair(number, None, None, error=invalid_json(exc, len(line) - len(text)))
    if (lone := lone_surrogate(line)) is not None:
        return InputPair(number, None, None, error=lone[1])
    if not isinstance(obj, dict):
        return InputPair(number, None, None, error="expected an object with 'source' and 'target', got "
                         f"{_JSON_KINDS.get(type(obj), type(obj).__name__)}")
    keys = next((keys for keys in PAIR_KEYS if all(isinstance(obj.get(k), (str, list)) for k in keys)), None)
    if keys is None:
        present = next((keys for keys in PAIR_KEYS if all(k in obj for k in keys)), ())  # a value of another type
        key = next((k for k in present if not isinstance(obj[k], (str, list))), None)  # (3, null) was 'it has' them
        if key is not None:
            return InputPair(number, None, None, error=f"{key!r} must be a string or a list of strings, not "
                             f"{_JSON_KINDS.get(type(obj[key]), type(obj[key]).__name__)}")
        shown = ", ".join(repr(k) for k in itertools.islice(obj, 6)) + (", ..." if len(obj) > 6 else "")
        return InputPair(number, None, None, error="expected an object with 'source' and 'target' (or 'sentence1' "
                         "and 'sentence2')" + (f"; it has {shown}" if obj else ""))
    for key in keys:  # a token null or 3 was aligned as the word 'None' or '3'
        value = obj[key]
        bad = next((k for k, token in enumerate(value) if not isinstance(token, str)), None) \
            if isinstance(value, list) else None
        if bad is not None:
            kind = _JSON_KINDS.get(type(value[bad]), type(value[bad]).__name__)
            return InputPair(number, None, None, error=f"{key!r} must be a string or a list of strings: its token "
                             f"{bad + 1} is {kind}")
    pair_id = obj.get("id")
    gold = any(key in obj for key in GOLD_LINK_KEYS)
    pair = _pair(number, obj[keys[0]], obj[keys[1]], tokenized or gold, None if pair_id is None else str(pair_id),
                 names)
    return replace(pair, own_tokens=False) if gold else pair  # on the gold's tokens, as a gold file's


def read_input_pairs(lines: Iterable[str], fmt: str = "auto", tokenized: bool = False,
                     names: tuple[str, str] = ALIGN_SIDES) -> Iterator[InputPair]:
    """Parse TSV or JSONL lines (`auto`: each line as :func:`is_json_line` says); blank lines and
    empty sentences are reported as errors so output positions stay aligned with input lines
    (the sides named by `names`)."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            yield InputPair(number, None, None, error="empty line")
            continue
        use_json = fmt == "jsonl" or (fmt == "auto" and is_json_line(line))
        yield (parse_jsonl_line if use_json else parse_tsv_line)(line, number, tokenized, names)


def read_parallel(source_lines: Iterable[str], target_lines: Iterable[str], tokenized: bool = False,
                  *, source_name: str = "source", target_name: str = "target") -> Iterator[InputPair]:
    """Pairs from two line-aligned files; a length mismatch raises MismatchError at the end,
    naming both files and both line counts (the longer file's rest is read to count it).

    An empty line on either side gives an error pair (reported like a blank TSV line)."""
    src_iter, tgt_iter = iter(source_lines), iter(target_lines)
    number = 0
    for number, src in enumerate(src_iter, start=1):
        tgt = next(tgt_iter, None)
        if tgt is None:
            raise MismatchError(f"{target_name} has {counted(number - 1, 'line')} but {source_name} has "
                                f"{_lines_to_end(src_iter, number)}")
        if not src.strip() or not tgt.strip():
            yield InputPair(number, None, None, error="empty line",
                            origin=source_name if not src.strip() else target_name)
            continue
        yield InputPair(number, _tokens(line_text(src), tokenized), _tokens(line_text(tgt), tokenized),
                        own_tokens=tokenized)
    if next(tgt_iter, None) is not None:
        raise MismatchError(f"{source_name} has {counted(number, 'line')} but {target_name} has "
                            f"{_lines_to_end(tgt_iter, number + 1)}")


#: One row of a pairs input as :func:`read_pair_rows` reads it: its line number, its two
#: sentences or why it has none, and its id (a JSON record's ``"id"``, a table's id column, else None).
PairRow = tuple[int, "tuple[str | list[str], str | list[str]] | str", "str | None"]


#: What ``similarity --input-format`` may say an input is: ``auto`` (told as :func:`read_pair_rows`
#: tells it), ``tsv`` and ``jsonl`` as ``align --input-format`` reads them (every line `s1 TAB s2`
#: or `id TAB s1 TAB s2`; every line a JSON record), or a layout of gold files whose first field
#: is no id (:func:`detect_layout`'s ``sts``: SemEval STS or the STS Benchmark; ``msrp``).
INPUT_FORMATS: tuple[str, ...] = ("auto", "tsv", "jsonl", "sts", "msrp")


def read_pair_rows(lines: Iterable[str], reason_of: Callable[[int], str | None] | None = None,
                   layout: list[str] | None = None, *, input_format: str = "auto",
                   notes: list[str] | None = None, names: tuple[str, str] = SIMILARITY_SIDES) -> Iterator[PairRow]:
    """The rows of one input of sentence pairs, as ``paralign similarity --pairs`` reads it:
    each line JSON or TSV as :func:`is_json_line` says. An input whose first line that is not
    blank is JSON is read as `align` reads it (:func:`read_input_pairs`); another is a TSV file
    (:func:`read_sentence_pairs`: plain pairs, STS, STS Benchmark, MSRP or a table with a
    header), whose JSON lines are records too (:func:`_tsv_rows`; a table's id column gives a
    row's id, as JSONL's ``"id"`` does). `input_format` (:data:`INPUT_FORMATS`) other than
    ``auto`` says what the input is, and wins over what its lines look like: ``jsonl`` and
    ``tsv`` read every line as ``align --input-format`` does (``tsv``: the ``pairs`` layout,
    a three-field line's first field its id whatever it holds), ``sts`` and ``msrp`` read a
    file of that layout. `reason_of(line)`: why a line cannot be read though it parsed (the
    command's undecodable lines), or None. A TSV-like input's layout (:func:`detect_layout`) is
    appended to `layout` once read, and what a reader of the scores should be told of how it
    was told (:func:`layout_note`) to `notes`. A row's reason names its sides by `names`: by default
    :data:`.sts.SIMILARITY_SIDES`, ``first`` and ``second``, as ``evaluate-sts`` and
    ``evaluate-paraphrase`` name them (``similarity``, and the web app's batch, which answers as
    it does, said ``empty target sentence`` of the row evaluate-sts called ``empty second
    sentence``: ``align``'s :data:`ALIGN_SIDES`)."""
    if input_format not in INPUT_FORMATS:
        raise ConfigurationError(f"input_format must be one of {', '.join(INPUT_FORMATS)}, not {input_format!r}")
    reason_of = reason_of or (lambda number: None)
    lines = iter(lines)
    head = [] if input_format != "auto" else list(takewhile_blank(lines))
    if input_format != "jsonl" and (input_format != "auto" or not head or not is_json_line(head[-1])):
        given = None if input_format == "auto" else "pairs" if input_format == "tsv" else input_format
        rows = _tsv_rows(itertools.chain(head, lines), [] if layout is None else layout, given,
                         [] if notes is None else notes, names)
        for number, row, pair_id in rows:
            yield number, (row if not isinstance(row, str) else reason_of(number) or row), pair_id
        return
    for pair in read_input_pairs(itertools.chain(head, lines), "jsonl" if input_format == "jsonl" else "auto",
                                 names=names):
        reason = reason_of(pair.line) or pair.error
        if reason is None and pair.source is not None and pair.target is not None:
            yield pair.line, (pair.source, pair.target), pair.id
        else:
            yield pair.line, reason or "no sentences", pair.id


def _tsv_rows(lines: Iterable[str], layout: list[str], given: str | None = None,
              notes: list[str] | None = None, names: tuple[str, str] = ALIGN_SIDES) -> Iterator[PairRow]:
    """The rows of a TSV file (`sentence_pair_rows`, its layout appended to `layout`, the note on
    how it was told to `notes`), with its JSON lines (`is_json_line`) read as records
    (`parse_jsonl_line`), as `align` reads them: (line number, the sentences or why there are
    none, the id: a table's id column, or the record's). A `given` layout is not told (no note),
    and its lines are all TSV lines, as ``align --input-format tsv`` reads them."""
    kept: dict[int, str] = {}

    def keep(lines: Iterable[str]) -> Iterator[str]:
        for number, line in enumerate(lines, start=1):
            kept[number] = line
            yield line

    found, rows = sentence_pair_rows(keep(lines), layout=given, names=names)
    layout.append(found)
    note = None if given is not None else layout_note(list(kept.values()), found)  # kept: the sample read
    if note is not None and notes is not None:
        notes.append(note)
    for number, row, pair_id in rows:
        line = kept.pop(number, "")
        while kept and (first := next(iter(kept))) < number:  # a header, a table's record's other lines
            del kept[first]
        if given is not None or not is_json_line(line):
            yield number, row, pair_id
            continue
        pair = parse_jsonl_line(line, number, False, names)
        if pair.source is None or pair.target is None:
            yield number, pair.error or "no sentences", pair.id
        else:
            yield number, (pair.source, pair.target), pair.id


def takewhile_blank(lines: Iterator[str]) -> Iterator[str]:
    """The blank lines at the head of `lines` and the first line that is not blank (what tells
    a JSONL input from a TSV one), taken from `lines`."""
    for line in lines:
        yield line
        if line.strip():
            return


def _lines_to_end(lines: Iterator[str], read: int) -> str:
    """How many lines a file has, `read` of them read already and the rest left in `lines`
    (counted on the way to an error only); "more lines" when the rest cannot be read."""
    try:
        return counted(read + sum(1 for _ in lines), "line")
    except (ParalignError, OSError, ValueError):  # a bad byte or a read error further on
        return "more lines"


def read_sentence_pairs(lines: Iterable[str], sample_lines: int = 50) -> Iterator[tuple[int, tuple[str, str] | str]]:
    """Yield (line number, (s1, s2)) for each pair, or (line number, reason) for bad rows.

    The layout is decided on the first `sample_lines` lines (:func:`detect_layout`): `s1 TAB s2`
    lines (or `id TAB s1 TAB s2`, as ``align`` reads three fields; numeric ids as :func:`numbered` tells them), or the files `evaluate-sts` and `evaluate-paraphrase` read (SemEval STS `score TAB s1
    TAB s2`, the STS Benchmark, MSRP with or without its header line, which is not a pair and
    yields nothing, a CSV or TSV table whose header, which yields nothing either, names
    ``sentence1`` and ``sentence2`` columns: one pair a record, numbered by its first line);
    gold scores and labels are ignored. A leading byte-order mark and CR/LF are
    removed; a row without its sentences is a bad row. :func:`sentence_pair_rows` gives each
    row's id, and the layout, too.
    """
    for number, row, _ in sentence_pair_rows(lines, sample_lines)[1]:
        yield number, row


#: One row of a file of sentence pairs: the line it starts on, its sentences (text) or why it has none, its id.
TextPairRow = tuple[int, "tuple[str, str] | str", "str | None"]


def sentence_pair_rows(lines: Iterable[str], sample_lines: int = 50, layout: str | None = None,
                       names: tuple[str, str] = ALIGN_SIDES) -> tuple[str, Iterator[TextPairRow]]:
    """The layout of a file of sentence pairs (:func:`detect_layout`, on its first `sample_lines`
    lines, read now; a given `layout` instead: ``pairs``, ``sts``, ``msrp``, read without a
    sample but for ``sts``, whose sample tells the STS Benchmark from SemEval's files) and its
    rows as :func:`read_sentence_pairs` reads them, each with its id: a table's ``id`` column
    (None where its header names none, or its cell is empty), as a JSONL record's ``"id"`` is its
    pair's; an `id TAB s1 TAB s2` line's first field in the ``pairs`` layout; None in the others.
    A bad row's reason names its sides by `names`."""
    lines = iter(lines)
    sample = list(itertools.islice(lines, sample_lines if layout in (None, "sts") else 0))
    layout = layout or detect_layout(sample)
    return layout, _pair_rows(layout, sample, lines, names)


#: Why a line of two fields in a file of numbered pairs (:func:`numbered`) is not read: the pair
#: of its id and a sentence was scored, its other sentence missing (``12 TAB Dogs bark.``).
def numbered_two_fields(names: tuple[str, str] = ALIGN_SIDES) -> str:
    """:data:`NUMBERED_TWO_FIELDS`, the sides named by `names`."""
    return (f"2 fields in a file of numbered pairs ({_three(names)}): its id or a sentence missing? "
            "(--input-format tsv reads it as the pair of its two fields)")


NUMBERED_TWO_FIELDS = numbered_two_fields()


def _pair_rows(layout: str, sample: list[str], lines: Iterator[str], names: tuple[str, str]) -> Iterator[TextPairRow]:
    """:func:`sentence_pair_rows`' rows of a file in `layout`, its first lines `sample`, the rest
    `lines`, its sides named by `names`."""
    if layout == "table":  # one pair a record, numbered by the line it starts on
        for number, record in table_records(itertools.chain(sample, lines)):
            if isinstance(record, str):
                yield number, record, None
            else:
                yield _text_row(_pair(number, record[TABLE_SENTENCES[0]], record[TABLE_SENTENCES[1]], tokenized=False,
                                      pair_id=record.get("id", "").strip() or None, names=names))
        return
    benchmark = layout == "sts" and _is_sts_benchmark(sample)  # one layout a file, not a guess a row
    ids = layout == "pairs" and numbered(_sample_fields(sample))  # every line has its id: two fields lack one
    for number, raw in enumerate(itertools.chain(sample, lines), start=1):
        line = line_text(raw)
        if number == 1:
            line = strip_bom(line)
        fields = line.split("\t")
        if layout == "msrp" and number == 1 and is_msrp_header(fields):
            continue  # the header (optional, as for load_msrp)
        if not line.strip():  # as evaluate-sts and evaluate-paraphrase say it (it was '1 field, expected 3 ...')
            yield number, "empty line", None
            continue
        if layout == "pairs" and ids and len(fields) == 2:
            yield number, numbered_two_fields(names), None
            continue
        if layout == "pairs":  # `s1 TAB s2` or `id TAB s1 TAB s2`, read as align reads it
            yield _text_row(parse_tsv_line(line, number, tokenized=False, names=names))
            continue
        if layout == "msrp":
            if len(fields) < 5:
                yield number, too_few_fields(len(fields), "msrp"), None
                continue
            fields = fields[3:5]
        elif benchmark:
            if len(fields) < 7:
                yield number, too_few_fields(len(fields), "stsb"), None
                continue
            fields = fields[5:7]
        elif len(fields) >= 3:
            fields = fields[1:3]  # SemEval STS
        else:
            yield number, too_few_fields(len(fields), "sts"), None
            continue
        yield _text_row(_pair(number, fields[0], fields[1], tokenized=False, names=names))  # as a line of pairs


def _text_row(pair: InputPair) -> TextPairRow:
    """A row of texts (:data:`TextPairRow`) of a pair :func:`parse_tsv_line` read as texts."""
    if pair.error is not None or not isinstance(pair.source, str) or not isinstance(pair.target, str):
        return pair.line, pair.error or "no sentences", pair.id
    return pair.line, (pair.source, pair.target), pair.id


def _sample_lines(sample: Sequence[str]) -> list[str]:
    """A file's first lines as its layout is told from them: line ends and byte-order marks off."""
    return [line_text(line).lstrip("\ufeff") for line in sample]


def _sample_fields(sample: Sequence[str]) -> list[list[str]]:
    """The tab-separated fields of each of a file's first lines (:func:`_sample_lines`), blank
    lines kept in their place."""
    return [line.split("\t") for line in _sample_lines(sample)]


def detect_layout(sample: Sequence[str]) -> str:
    """``table`` (a first line naming ``sentence1`` and ``sentence2`` columns: a CSV or TSV with
    a header, :func:`.sts.table_header`), ``msrp`` (a header line starting ``Quality``, or most rows an MSRP row: a 0/1 label, or
    none, and two numeric ids before the sentences, as ``load_msrp`` reads a file without its
    header), ``sts`` (most rows an STS or STS Benchmark row with a gold score, or an empty one,
    but for numeric ids: :func:`numbered`) or ``pairs`` (anything else: `s1 TAB s2`, `id TAB s1 TAB s2`), from a file's first lines. An MSRP file without its header was taken for SemEval
    STS (its label a score), so its two ids were read as the pair's sentences."""
    lines = _sample_lines(sample)
    if lines and table_header(lines[0]) is not None:
        return "table"
    every = [line.split("\t") for line in lines]
    if every and is_msrp_header(every[0]):
        return "msrp"
    rows = [fields for line, fields in zip(lines, every, strict=True) if line.strip()]
    if most_rows_msrp(rows):
        return "msrp"
    if rows and sum(_looks_like_sts(fields) for fields in rows) * 2 >= len(rows) \
            and not numbered(every):  # blank lines keep their place: ids count lines
        return "sts"
    return "pairs"


def layout_note(sample: Sequence[str], layout: str) -> str | None:
    """What to tell a user of the layout :func:`detect_layout` found in a file's first lines
    (`sample`) where it could only guess: every three-field row's first field a whole number
    within the gold scores' range (0-5), as a few pairs' ids and a few STS rows' scores both
    are. Read as ids (counting up: :func:`numbered`) or as gold scores, dropped, the note says
    which and how ``similarity --input-format`` reads the file the other way; None otherwise."""
    firsts = whole_firsts(_sample_fields(sample))
    if not firsts or layout not in ("pairs", "sts") or any(first > SCORE_RANGE[1] for _, first in firsts):
        return None
    shown = ", ".join(str(first) for _, first in firsts[:4]) + (", ..." if len(firsts) > 4 else "")
    if layout == "pairs" and counts_up(firsts):
        return (f"the first fields ({shown}) count up as ids do, so they are read as the pairs' ids (id TAB s1 "
                "TAB s2); if they are gold scores (SemEval STS: score TAB s1 TAB s2), give --input-format sts")
    if layout != "sts":
        return None
    return (f"the first fields ({shown}) are whole numbers within the gold scores' range (0-5), so they are read "
            "as SemEval STS gold scores (score TAB s1 TAB s2) and dropped; if they are the pairs' ids, give "
            "--input-format tsv")


def sentences_from_file(path: str | Path) -> list[str]:
    """The sentences of an STS, STS Benchmark or MSRP file, else of a text file (one a line)."""
    return list(iter_sentences_from_file(path))


def iter_sentences_from_file(path: str | Path, sample_lines: int = 50) -> Iterator[str]:
    """Stream the sentences of a file of pairs (STS, STS Benchmark, MSRP, a table, or ``s1 TAB
    s2``/``id TAB s1 TAB s2`` lines in a file whose sampled lines are mostly such pairs): those of
    every pair ``similarity --pairs`` reads in it (:func:`read_sentence_pairs`, so a line it
    reports as bad gives none: a three-field line whose third field is a number, a side empty or
    too long; such a line was a sentence, tabs and all, by a rule of --idf-from's own), else of a
    text file: its lines (a text file's line may hold a tab).
    (A pair's line was one sentence, TAB and both sides, so ``--idf-from pairs.tsv`` counted a
    pair as one document and never found a scored sentence in it: no note that the IDF
    statistics were fitted on the sentences scored.) A file of JSON records (most sampled lines
    :func:`is_json_line`), as ``similarity --pairs`` reads one (:func:`read_pair_rows`), gives
    each record's two sentences, a side given as tokens joined by spaces; before, each line was a
    sentence, braces, keys and all.

    Whether the file is one of pairs is decided on its first `sample_lines` lines (the layout of
    its pairs then as :func:`read_pair_rows` decides it, on its own sample), so a large file (an
    IDF corpus) is read line by line and never held in memory. A gold score or label plays no part: a
    row without one (most rows of STS 2015/2016), or with one out of range, gives its sentences
    too (they were left out without a word, as ``evaluate-sts`` leaves out such a row's pair).
    """
    with open_text(path) as handle:
        sample = list(itertools.islice(handle, sample_lines))
    lines = [line for line in sample if line.strip()]
    rows = [line_text(line).split("\t") for line in lines]
    pairs = sum(_fields_error(fields) is None for fields in rows) * 2 > len(rows)  # else a text file, a tab or not
    records = sum(map(is_json_line, lines)) * 2 > len(lines)  # JSONL: a record a line
    if detect_layout(sample) != "pairs" or pairs or records:  # STS, the STS Benchmark, MSRP, a table, pairs, JSONL
        with open_text(path) as handle:
            for _number, row, _id in read_pair_rows(handle):  # as similarity --pairs reads them
                if isinstance(row, tuple):
                    yield from (side if isinstance(side, str) else " ".join(side) for side in row)
        return
    with open_text(path) as handle:
        for line in without_bom(handle):  # a BOM would join the first word ('\ufeffthe')
            if line.strip():
                yield line.strip()


def _is_sts_benchmark(sample: Sequence[str]) -> bool:
    """Whether a file of the ``sts`` layout is the STS Benchmark (score in field 5) rather than
    SemEval STS (score first), by its sampled rows, as ``evaluate-sts`` tells them
    (:func:`.sts.format_of_rows`). Told per row, a Benchmark row cut short (6 fields) was read
    as the SemEval pair of its source and year ('MSRvid', '2012test'), and a SemEval row with
    trailing tabs as the empty fields 6 and 7 of a Benchmark row."""
    return format_of_rows(_sample_fields(sample)) == "stsb"


def _looks_like_sts(fields: list[str]) -> bool:
    """A row of `score TAB s1 TAB s2` or of the STS Benchmark (score in field 5), its score
    given or empty (:func:`.sts.row_layout`, as ``evaluate-sts`` tells an STS row): SemEval STS
    2015/2016 files leave most scores empty, and such a file was taken for plain pairs."""
    return len(fields) >= 3 and row_layout(fields) is not None
