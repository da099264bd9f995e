"""The library gives what the command line gives for the same input and defaults, in the same
shape: a researcher can move between a notebook and the shell without the numbers moving."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import paralign

ROOT = Path(__file__).resolve().parents[1]
DEMO_GOLD = ROOT / "examples" / "demo" / "gold.jsonl"
X, Y = "The senator sponsored the bill.", "The senator drafted the bill."


def cli(*args: str, stdin: str = "") -> dict:
    done = subprocess.run([sys.executable, "-m", "paralign", *args, "--format", "json"], input=stdin,
                          capture_output=True, text=True, timeout=300, check=True)
    return json.loads(done.stdout)


def test_an_aligned_pair_serialises_as_paralign_align_shows_it(data) -> None:
    """`paralign align --format json` shows tokens, links and word pairs; the library's
    Alignment knows only indices. `AlignedSentences` (now importable from paralign, as
    similarity_many's batches already held it) gives that record with `to_dict`."""
    from paralign import AlignedSentences

    aligner = paralign.Aligner()
    source, target = aligner.annotate([X, Y])
    pair = AlignedSentences(source, target, aligner.align(source, target))
    shown = cli("align", stdin=f"{X}\t{Y}\n")
    assert {"line": 1, **pair.to_dict(), "signature": shown["signature"]} == shown
    assert pair.to_dict()["pairs"][:2] == [["The", "The"], ["senator", "senator"]]


def test_evaluate_aligner_is_importable_from_paralign_and_gives_the_commands_figures(data) -> None:
    """Scoring an aligner on a gold file had no `from paralign import ...` (only
    paralign.aligners.evaluation.evaluate_aligner, named nowhere a user would look), while
    score_alignments and load_pairs were there. It is exported; its figures are
    `paralign evaluate-aligner`'s (timings aside)."""
    from paralign import evaluate_aligner

    timings = ("annotate_seconds", "align_seconds", "pairs_per_second", "align_ms_per_pair")
    ours = evaluate_aligner(paralign.Aligner(), str(DEMO_GOLD))
    theirs = cli("evaluate-aligner", "--gold", str(DEMO_GOLD))
    for key in timings:
        ours.pop(key), theirs.pop(key)
    assert ours == theirs
    assert 0.9 < ours["macro"]["f1"] < 1.0


def test_a_similarity_signature_of_names_is_the_commands(data) -> None:
    """similarity_many takes a signal and an aligner by name ("sultan2014", "sultan:paraphrase"),
    but similarity_signature signed those names as 'signal:str' and 'aligner:str', without the
    word-similarity source: a wrong signature, silently. Names are resolved as similarity_many
    resolves them, and give what `paralign similarity --format json` prints."""
    from paralign.similarity.signature import similarity_signature

    shown = cli("similarity", "--preset", "paraphrase", "--signal", "sultan2014",
                stdin=f"{X}\t{Y}\n")
    assert similarity_signature("sultan2014", "sultan:paraphrase") == shown["signature"]
    assert similarity_signature("sultan2014") == cli("similarity", stdin=f"{X}\t{Y}\n")["signature"]


def test_a_session_of_library_calls_prints_nothing(data) -> None:
    """Library code never prints (the command line writes): a notebook session of the main calls
    leaves stdout and stderr empty, progress bars and third-party chatter included."""
    code = (
        "import paralign\n"
        "x, y = 'The senator sponsored the bill.', 'The senator drafted the bill.'\n"
        "paralign.Aligner().align(x, y)\n"
        "paralign.similarity_many([(x, y), ('', 'A cat.')])\n"
        "paralign.paraeval(['he bought two apples'], [['he purchased two apples']], sentence_level=True)\n"
        "paralign.build_lattice(['the cat sat', 'a cat sat'])\n"
        "paralign.evaluate_aligner(paralign.Aligner(), " + repr(str(DEMO_GOLD)) + ")\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
