"""The rows of an input of sentence pairs scored by one signal, in input order, with every bad row
in its place: what ``paralign similarity`` keeps and writes, and what the web app's batch route
answers with (the same record, so a page's download is the command's output).

A row is (line number, the two sentences or why there are none, its id, the file to name for
it), as :func:`~paralign.corpora.sentence_pairs.read_pair_rows` reads rows (and a fourth value,
the file, for two line-aligned files). :class:`ScoredRows` scores them block by block
(:func:`~.scores.similarity_many`); a bad row, or a pair that cannot be scored, is a problem
with its line and reason beside the others' scores, never the end of the batch.

Not for: reading the input (:mod:`paralign.corpora.sentence_pairs`) or printing it (the CLI).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..aligners.batch import PairFailure
from ..alignment import AlignFunction
from .scores import SimilarityBatch, given_sides, parses_nothing, similarity_many
from .signals import Signal
from .signature import as_read, scored_aligner
from .split_notes import repeated_ids_note

#: One input row: its line number, its two sentences or why it has none, its id (JSONL's
#: ``"id"``) and the file to name for it when not the input's name (two files).
Row = tuple[int, "tuple[Any, Any] | str", "str | None", "str | None"]


def score_line(score: float | None, threshold: float | None = None) -> str:
    """One line of ``paralign similarity``'s text output (a TSV): the score, and with a
    paraphrase model (a threshold) TAB and its 1/0 label. A pair without a score has as many
    columns as the others, each NA, so a reader that splits every line into the same columns
    still can (the pair's line is reported beside)."""
    columns = ["NA" if score is None else f"{score:.6f}"]
    if threshold is not None:
        columns.append("NA" if score is None else str(int(score > threshold)))
    return "\t".join(columns) + "\n"


@dataclass
class ScoredRows:
    """Rows scored so far, in input order: each row's score (None for a bad one), the failures
    by index among all the rows (as :class:`~.scores.SimilarityBatch` has them), the ids, the
    line numbers, and the bad rows as ``{line, reason[, file]}`` records; and which sides of
    the rows read were given as token lists (the others are texts, which spaCy's tokenizer
    reads, whatever the aligner)."""

    scores: list[float | None] = field(default_factory=list)
    failures: list[PairFailure] = field(default_factory=list)
    ids: list[str | None] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    problems: list[dict[str, Any]] = field(default_factory=list)
    #: which sides of the pairs read were given as token lists, each (source, target) once
    #: (:func:`~.scores.given_sides`): the record's ``tok`` signature part
    sides: set[tuple[bool, bool]] = field(default_factory=set)

    def add(self, block: Sequence[Row], signal: Signal, aligner: AlignFunction, workers: int = 1,
            progress: Callable[[int], None] | None = None) -> list[float | None]:
        """Score a block of rows (its good ones in one :func:`similarity_many` batch) and keep
        them; the block's scores, in its order."""
        good = [(n, r) for n, r, _, _ in block if not isinstance(r, str)]
        self.sides |= given_sides(r for _, r in good)
        batch = similarity_many([r for _, r in good], workers, signal=signal, aligner=aligner, progress=progress)
        by_line: dict[int, float | None] = {n: s for (n, _), s in zip(good, batch.scores, strict=True)}
        errors = {good[failure.index][0]: failure.error for failure in batch.failures}
        out: list[float | None] = []
        for number, row, pair_id, origin in block:
            if isinstance(row, str):
                self.problems.append({"line": number, "reason": row, **({"file": origin} if origin else {})})
                self.failures.append(PairFailure(len(self.scores), row))
            elif number in errors:
                self.problems.append({"line": number, "reason": errors[number]})
                self.failures.append(PairFailure(len(self.scores), errors[number]))
            self.ids.append(pair_id)
            self.lines.append(number)
            score = by_line.get(number)
            self.scores.append(score)
            out.append(score)
        return out

    def repeated_ids_note(self, source: str) -> str | None:
        """A note on the ids that an earlier row has (each named ``source:line``), or None."""
        return repeated_ids_note([(i, f"{source}:{n}") for i, n in zip(self.ids, self.lines, strict=True)], "pair",
                                 "id", 'its score and the first\'s are told apart only by their place in "scores"')

    def to_dict(self, signal: Signal, aligner: AlignFunction, signature: str, notes: list[str]) -> dict[str, Any]:
        """The record ``paralign similarity --format json`` writes without a --model: the
        library's batch record of all the rows, the bad rows, the notes and the JSONL ids (when
        any row has one). `signature` is the run's, as the rows read make it (:func:`~.signature.as_read`):
        their ``tok`` part (a JSON record's token lists), and no ``spacy`` part when no spaCy
        model read a row (:func:`~.scores.parses_nothing`, and every row's sides token lists), as
        :func:`~.scores.similarity_many` signs those rows."""
        signature = as_read(signature, self.sides, tokens_alone=parses_nothing(signal, aligner))
        batch = SimilarityBatch(tuple(self.scores), tuple(self.failures), signal.name,
                                scored_aligner(signal, aligner, signature), signature)
        result = {**batch.to_dict(), "skipped": len(self.problems), "skipped_rows": self.problems, "notes": notes}
        if any(pair_id is not None for pair_id in self.ids):  # JSONL's "id"s, in the scores' order
            result["ids"] = self.ids
        return result
