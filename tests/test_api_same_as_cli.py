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


def cli_json(tmp_path: Path, capsys, *args: str) -> dict:
    """A command's --format json output, run in this process (as `paralign ...` runs it)."""
    from paralign.cli import main

    assert main([*args, "--format", "json"]) in (0, 1)
    return json.loads(capsys.readouterr().out)


#: What only `paralign similarity` knows: its input rows (the skipped ones by line), what it
#: warned about, the JSONL ids, and a paraphrase model's threshold and labels.
SIMILARITY_CLI_ONLY = {"skipped", "skipped_rows", "notes", "ids", "threshold", "paraphrase"}


def test_similarity_many_to_dict_is_the_commands_json(tmp_path: Path, capsys, data) -> None:
    """`SimilarityBatch.to_dict()` had "failures" and no "signature" or "aligner", while
    `paralign similarity --format json` had those and no "failures": a researcher saving the
    library's result could not reproduce the command's record. The command's JSON is now the
    library's record plus what only the command knows (its input rows)."""
    pairs = [(X, Y), ("", "A cat."), ("A man is eating.", "A man eats.")]
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps({"source": a, "target": b}) + "\n" for a, b in pairs), encoding="utf-8")
    for options, aligner in (((), None), (("--preset", "paraphrase"), "sultan:paraphrase")):
        ours = paralign.similarity_many(pairs, aligner=aligner).to_dict()
        shown = cli_json(tmp_path, capsys, "similarity", "--pairs", str(path), *options)
        assert {key: shown[key] for key in ours} == ours
        assert set(shown) - set(ours) <= SIMILARITY_CLI_ONLY
        assert ours["aligner"] == (aligner or "sultan:default") and ours["signature"].startswith("signal:sultan2014|")
    ours = paralign.similarity_many(pairs, signal="all-words", aligner="exact").to_dict()
    shown = cli_json(tmp_path, capsys, "similarity", "--pairs", str(path), "--signal", "all-words",
                     "--aligner", "exact")
    assert {key: shown[key] for key in ours} == ours and ours["aligner"] == "exact"


def test_an_aligned_pair_of_the_library_carries_the_signature_paralign_align_writes(tmp_path: Path, capsys,
                                                                                   data) -> None:
    """`paralign align --format json` writes each pair's signature, but the library's
    AlignedSentences.to_dict() had none, so its record was not the command's. A pair aligned by
    the library's batch (align_pairs) carries its aligner's signature, and the command's record
    is that to_dict plus what only the command knows: the pair's input line (and id)."""
    from paralign.aligners.batch import align_pairs
    from paralign.aligners.signature import alignment_signature

    pairs = [(X, Y), ("A man is eating.", "A man eats.")]
    path = tmp_path / "pairs.tsv"
    path.write_text("".join(f"{a}\t{b}\n" for a, b in pairs), encoding="utf-8")
    for options, name in (((), "sultan:default"), (("--preset", "paraphrase"), "sultan:paraphrase")):
        batch = align_pairs(pairs, aligner=paralign.get_aligner(*name.split(":")))
        ours = [item.to_dict() for item in batch.items]
        from paralign.cli import main

        assert main(["align", str(path), "--format", "json", *options]) == 0
        shown = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert [{key: record[key] for key in mine} for record, mine in zip(shown, ours, strict=True)] == ours
        assert all(set(record) - set(mine) == {"line"} for record, mine in zip(shown, ours, strict=True))
        assert ours[0]["signature"] == alignment_signature(name) and f"aligner:{name}|" in ours[0]["signature"]


STS_ROWS = [(4.0, "A man plays a guitar.", "A man plays a guitar."), (1.0, "Cats sleep.", "Dogs bark."),
            (3.0, "The cat sleeps.", "The cat naps."), (5.0, "The dog runs fast.", "The dog runs fast."),
            (2.0, "A bird sings.", "A bird flies away.")]
#: The figures of one evaluation that evaluate-sts writes per file ("sets") and over them.
STS_FIGURES = ("pairs", "pearson", "spearman", "failed", "signal")


def test_evaluate_sts_results_are_the_commands_json(tmp_path: Path, capsys, data) -> None:
    """`evaluate_sts_files(...).to_dict()` is `paralign evaluate-sts --format json` as it is. But
    `paralign.evaluate_sts(triples)` gave an StsEvaluation whose to_dict had neither the aligner
    nor the signature the command writes with the same figures: it now has both."""
    from paralign.similarity import evaluate_sts_files

    path = tmp_path / "sts.tsv"
    path.write_text("".join(f"{g}\t{a}\t{b}\n" for g, a, b in STS_ROWS), encoding="utf-8")
    shown = cli_json(tmp_path, capsys, "evaluate-sts", "--data", str(path), "--aligner", "exact")
    assert evaluate_sts_files([path], aligner=paralign.get_aligner("exact")).to_dict() == shown
    ours = paralign.evaluate_sts([(a, b, g) for g, a, b in STS_ROWS], aligner="exact").to_dict()
    assert {key: ours[key] for key in STS_FIGURES} == {key: shown["sets"][0][key] for key in STS_FIGURES}
    assert (ours["aligner"], ours["signature"]) == (shown["aligner"], shown["signature"])


PARAPHRASE_TRAIN = [(1, "A man plays a guitar.", "A man is playing the guitar."), (0, "Cats sleep.", "The stock fell."),
                    (1, "The cat sleeps.", "The cat naps."), (0, "A bird sings.", "Shares dropped 5%.")]
PARAPHRASE_TEST = [(1, "She reads a book.", "She is reading a book."), (0, "It rains today.", "The dog runs fast."),
                   (1, "He bought 3 apples.", "He bought three apples."), (0, "Dogs bark.", "A bird flies away.")]
#: What only evaluate-paraphrase's files give: their skipped rows, by file and line.
PARAPHRASE_FILES_ONLY = {"skipped", "skipped_rows"}


def test_evaluate_paraphrase_results_are_the_commands_json(tmp_path: Path, capsys, data) -> None:
    """`evaluate_paraphrase_files(...)` is `paralign evaluate-paraphrase --format json` as it is,
    and `paralign.evaluate_paraphrase(train, test).to_dict()` is that record but for what only
    files have (their skipped rows, each failure's file and line)."""
    from paralign.similarity import evaluate_paraphrase_files

    paths = []
    for name, rows, first in (("train", PARAPHRASE_TRAIN, 0), ("test", PARAPHRASE_TEST, 50)):
        lines = ["Quality\t#1 ID\t#2 ID\t#1 String\t#2 String"]
        lines += [f"{label}\t{k}\t{k + 100}\t{a}\t{b}" for k, (label, a, b) in enumerate(rows, first)]
        paths.append(tmp_path / f"{name}.tsv")
        paths[-1].write_text("\n".join(lines) + "\n", encoding="utf-8")
    options = {"classifier": "signal", "signal": "sultan2014", "aligner": paralign.get_aligner("exact")}
    shown = cli_json(tmp_path, capsys, "evaluate-paraphrase", "--train", str(paths[0]), "--test", str(paths[1]),
                     "--classifier", "signal", "--signal", "sultan2014", "--aligner", "exact")
    assert evaluate_paraphrase_files([paths[0]], paths[1], **options) == shown
    train, test = ([(a, b, bool(label)) for label, a, b in rows] for rows in (PARAPHRASE_TRAIN, PARAPHRASE_TEST))
    ours = paralign.evaluate_paraphrase(train, test, **options).to_dict()
    assert {key: shown[key] for key in ours} == ours
    assert set(shown) - set(ours) <= PARAPHRASE_FILES_ONLY


def test_score_files_to_dict_is_score_alignments_json(tmp_path: Path, capsys) -> None:
    """docs/api.md named `score_alignments(...).to_dict()` as score-alignments' JSON; that one
    has no gold file to name in `warnings` or `possible`: `score_files` (the command's own
    call) is, and the page says so now."""
    from paralign.metrics.alignment_scores import score_files

    gold = tmp_path / "gold.pharaoh"
    gold.write_text("0-0 1-1\n0-0\n", encoding="utf-8")
    system = tmp_path / "system.pharaoh"
    system.write_text("0-0\n0-0 1-1\n", encoding="utf-8")
    shown = cli_json(tmp_path, capsys, "score-alignments", "--gold", str(gold), "--system", str(system),
                     "--gold-links", "sure+possible")
    assert shown["warnings"]  # a gold without possible links, named by its file
    assert score_files(gold, system, "sure+possible").to_dict() == shown
    assert "`metrics.alignment_scores.score_files(gold, system).to_dict()`" in (ROOT / "docs" / "api.md").read_text(
        encoding="utf-8")


def test_tune_aligner_gives_the_commands_json(data, tmp_path) -> None:
    """docs/api.md's table named no function for `paralign tune-aligner`, and its test-split
    warning was the command's alone: `aligners.evaluation.tune_aligner` gives the JSON, warning included."""
    from paralign.aligners.evaluation import tune_aligner

    gold = tmp_path / "demo_test.jsonl"
    gold.write_text(DEMO_GOLD.read_text(encoding="utf-8"), encoding="utf-8")
    ours = tune_aligner(paralign.Aligner(), str(gold), ppdb_grid=(0.5, 0.9), w_grid=(0.9,))
    theirs = cli("tune-aligner", "--gold", str(gold), "--ppdb-grid", "0.5,0.9", "--w-grid", "0.9")
    assert ours == theirs and "test split" in ours["warnings"][0]
    assert "`aligners.evaluation.tune_aligner(" in (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
