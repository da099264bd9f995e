"""The long aligner jobs report their progress as it is made, step by step, through the
``progress`` the caller gives (the library never prints): each step's items come as they are
done, with their count (``len``: tqdm's total) and the step's name (progress audit).

Before: ``align_annotated`` ran its pairs as one chunk in this process, so the display got every
pair at once when the last was aligned (``evaluate-aligner --workers 1`` showed ``aligning: 0it``,
then the end), without a total; the gold's annotation (spaCy: ~7 s on 800 MSR pairs, the
longest step) reported nothing at all, in ``evaluate_aligner`` and ``tune_aligner``."""

from __future__ import annotations

import json

import pytest

from paralign.aligners.evaluation import evaluate_aligner, tune_aligner
from paralign.aligners.sultan import Aligner

TEXTS = [("A cat sat on the mat.", "The cat sat on a mat."), ("He bought a red car.", "He purchased a car.")]


def recording(log: list[tuple[str, int, list[int]]], done: list[int]):
    """A `progress` that notes each step's name and count and, at each item it is given, how many
    units of work (`done`) were finished then."""

    def progress(steps):
        at: list[int] = []
        log.append((steps.name, len(steps), at))
        for item in steps:
            at.append(len(done))
            yield item

    return progress


def test_align_annotated_gives_each_pair_as_it_is_aligned(nlp_annotator, monkeypatch) -> None:
    aligner = Aligner(annotator=nlp_annotator)
    sentences = aligner.annotate([x for pair in TEXTS * 4 for x in pair])
    pairs = list(zip(sentences[0::2], sentences[1::2], strict=True))
    expected = aligner.align_annotated(pairs)
    done: list[int] = []
    real = aligner.align_sentences
    monkeypatch.setattr(aligner, "align_sentences", lambda s, t: done.append(1) or real(s, t))
    log: list[tuple[str, int, list[int]]] = []
    assert aligner.align_annotated(pairs, progress=recording(log, done)) == expected
    assert [(name, total) for name, total, _ in log] == [("aligning", 8)]
    assert log[0][2] == [1, 2, 3, 4, 5, 6, 7, 8]  # each pair as soon as it is aligned (was 8 x [8])


class Counting:
    """An annotator that counts the sentences spaCy has made (its pipe read in batches of 2)."""

    def __init__(self, real) -> None:
        self.real, self.made = real, []

    def pipe(self, items, n_process=1):
        for sentence in self.real.pipe(items, n_process=n_process):
            self.made.append(1)
            yield sentence

    def __call__(self, item):
        return self.real(item)


@pytest.fixture
def gold(tmp_path):
    path = tmp_path / "gold.jsonl"
    records = [{"id": str(k), "source": s, "target": t, "sure": [[1, 1], [2, 2]]}
               for k, (s, t) in enumerate(TEXTS * 3)]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_evaluate_aligner_reports_the_annotation_then_the_alignment(nlp_annotator, monkeypatch, gold) -> None:
    monkeypatch.setattr(nlp_annotator, "batch_size", 2)
    counting = Counting(nlp_annotator)
    aligner = Aligner(annotator=counting)
    log: list[tuple[str, int, list[int]]] = []
    plain = evaluate_aligner(aligner, gold)
    counting.made.clear()
    result = evaluate_aligner(aligner, gold, progress=recording(log, counting.made))
    assert [(name, total) for name, total, _ in log] == [("loading", 1), ("annotating", 6), ("aligning", 6)]
    parsed = log[1][2]  # sentences parsed when each pair was given: a pair is its 2 sentences
    assert parsed == sorted(parsed) and parsed[0] < 12 and all(n >= 2 * k for k, n in enumerate(parsed, 1))
    timings = ("annotate_seconds", "align_seconds", "pairs_per_second", "align_ms_per_pair")
    assert {k: v for k, v in result.items() if k not in timings} == \
        {k: v for k, v in plain.items() if k not in timings}


def test_tune_aligner_reports_the_annotation_then_the_grid(nlp_annotator, gold) -> None:
    log: list[tuple[str, int, list[int]]] = []
    tune_aligner(Aligner(annotator=nlp_annotator), gold, ppdb_grid=(0.5, 0.9), w_grid=(0.9,),
                 progress=recording(log, []))
    assert [(name, total, len(at)) for name, total, at in log] == [("annotating", 6, 6), ("grid", 2, 2)]


def test_align_input_gives_its_results_with_their_number(nlp_annotator) -> None:
    """align_input's progress got a generator: a display had no total (``aligning: 3it``)."""
    from paralign.aligners.batch import align_input
    from paralign.corpora.sentence_pairs import InputPair

    pairs = [InputPair(k, s, t) for k, (s, t) in enumerate(TEXTS * 2, 1)]
    log: list[tuple[str, int, list[int]]] = []
    results = align_input(Aligner(annotator=nlp_annotator), pairs, progress=recording(log, []))
    assert [(name, total, len(at)) for name, total, at in log] == [("aligning", 4, 4)]
    assert [pair.line for pair, *_ in results] == [1, 2, 3, 4]


def test_evaluate_aligner_opens_a_loading_step_before_it_loads(nlp_annotator, gold) -> None:
    """The aligner's resources and the parser's warm-up (the encoder with --preset contextual:
    5-8 s) came before the first step, with nothing to show for them."""
    aligner = Aligner(annotator=nlp_annotator)
    loaded: list[bool] = []

    def progress(steps):
        if steps.name == "loading":
            loaded.append(aligner.loaded_related is not None)
        yield from steps
        if steps.name == "loading":
            loaded.append(aligner.loaded_related is not None)

    evaluate_aligner(aligner, gold, progress=progress)
    assert loaded == [False, True]
